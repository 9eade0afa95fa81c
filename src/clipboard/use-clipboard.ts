import { useStdout } from 'ink';
import { clipboardWrite, copyStatus } from './osc52';
import { readTmuxOptions } from './tmux';

/**
 * Returns copy(text, what): writes the OSC 52 sequence to the terminal Ink draws on, unless it
 * is too long for terminals to take or a multiplexer in between would drop it (then nothing is
 * written), and returns the status line that says which. tmux's options are read at each copy
 * (a few ms), so changing them takes effect without restarting burrow. The sequence moves no
 * cursor and prints nothing, so it can go out between frames.
 */
export function useCopy(env: Record<string, string | undefined> = process.env): (text: string, what: string) => { text: string; level: 'info' | 'warn' } {
  const { stdout } = useStdout();
  return (text, what) => {
    const result = clipboardWrite(text, env, readTmuxOptions(env));
    if (result.ok) stdout.write(result.sequence);
    return copyStatus(what, result);
  };
}
