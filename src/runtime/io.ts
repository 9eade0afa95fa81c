/** The process's streams and environment, passed in so every entry point can be driven by tests. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

/** A user mistake on the command line: printed as a message with exit code 2. */
export class UsageError extends Error {}

/**
 * Test hook (only with BURROW_TEST=1 and BURROW_INPUT_ACK=1, and only at a terminal): after each
 * chunk the program reads from stdin it writes `ESC ] 7790 ; N BEL` to the terminal, N being the
 * chunk's length in bytes, and `ESC ] 7790 ; raw=1 BEL` (or `raw=0`) when it turns raw mode on or
 * off. A terminal ignores an OSC it does not know; the pty test helper counts them, so in raw mode
 * it sends the next key only once the program has read the one before. Keys read in one chunk are
 * a different input (an esc followed by `/` is alt-/), and pacing by a pause holds only on an idle
 * machine. In cooked mode the terminal itself holds a line until enter, so there is nothing to
 * wait for.
 */
export const INPUT_ACK_OSC = 7790;

interface Input {
  emit(event: string | symbol, ...args: unknown[]): boolean;
  setRawMode?: (mode: boolean) => unknown;
}

interface Out {
  isTTY?: boolean;
  write(chunk: string): boolean;
}

const hooked = new WeakSet<object>();

export function installInputAck(stdin: Input, stdout: Out, env: NodeJS.ProcessEnv): void {
  if (env.BURROW_TEST !== '1' || env.BURROW_INPUT_ACK !== '1' || !stdout.isTTY || hooked.has(stdin)) return;
  hooked.add(stdin);
  const say = (what: string | number) => stdout.write(`\x1b]${INPUT_ACK_OSC};${what}\x07`);
  const emit = stdin.emit.bind(stdin);
  // every chunk a reader gets, paused (read()) or flowing, is emitted as 'data'
  stdin.emit = (event: string | symbol, ...args: unknown[]): boolean => {
    // before the readers: a key that ends the program has still been read
    if (event === 'data') {
      const chunk = args[0];
      say(typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk instanceof Uint8Array ? chunk.length : 0);
    }
    return emit(event, ...args);
  };
  const setRawMode = stdin.setRawMode?.bind(stdin);
  if (setRawMode) {
    stdin.setRawMode = (mode: boolean) => {
      const result = setRawMode(mode);
      say(`raw=${mode ? 1 : 0}`);
      return result;
    };
  }
}
