import { useStdout } from 'ink';
import { clipboardSequence } from './osc52';

/**
 * Returns copy(text): writes the OSC 52 sequence to the terminal Ink draws on. The sequence
 * moves no cursor and prints nothing, so it can go out between frames. Returns how it was sent.
 */
export function useClipboard(env: Record<string, string | undefined> = process.env): (text: string) => 'osc52' | 'osc52-tmux' {
  const { stdout } = useStdout();
  return (text) => {
    stdout.write(clipboardSequence(text, env));
    return env.TMUX ? 'osc52-tmux' : 'osc52';
  };
}
