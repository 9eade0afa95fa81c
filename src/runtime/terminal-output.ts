import { StringDecoder } from 'node:string_decoder';
import { terminalSafeOutput } from '../text/terminal-safe';
import type { Io } from './io';

type Stream = Io['stdout'];

/** The wrapped stream's way past the sanitiser, for burrow's own styling (see writeStyled). */
const STYLED_WRITE = Symbol('burrow.styledWrite');

/**
 * Writes text that carries burrow's own SGR styling (a zone's colour) around parts already made
 * safe (terminalSafe): through a wrapped terminal stream it skips the sanitiser, which would show
 * the styling as visible escapes; elsewhere it is a plain write. Only for text whose every outside
 * part was sanitised by the caller.
 */
export function writeStyled(stream: Stream, text: string): void {
  const styled = (stream as unknown as Record<symbol, ((t: string) => void) | undefined>)[STYLED_WRITE];
  if (styled) styled(text);
  else stream.write(text);
}
type WriteCallback = (error?: Error | null) => void;

/**
 * The one writer of every command's output. At a terminal, every byte a command writes to stdout
 * or stderr goes through the sanitiser (terminalSafeOutput: newlines, tabs and CRLF kept, every
 * other control a visible escape), whatever the format that made it, so an output path cannot
 * forget it. In a file or a pipe the stream is the process's own: the bytes stay exact.
 *
 * The stream is wrapped, not copied: isTTY, columns, events ('drain', 'error' on EPIPE) and the
 * rest are the real stream's.
 */
export function terminalSafeStream<S extends Stream>(stream: S): S {
  if (!stream.isTTY) return stream;
  const decoder = new StringDecoder('utf8');
  // a CR at the end of one write may be the first half of a CRLF the next write completes
  let heldCr = false;
  // a string is text (commands write no other encoding); bytes are read as UTF-8, as the terminal will
  const clean = (chunk: unknown): string => {
    let text = typeof chunk === 'string' ? decoder.end() + chunk : decoder.write(Buffer.from(chunk as Uint8Array));
    if (heldCr) text = `\r${text}`;
    heldCr = text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    return terminalSafeOutput(text);
  };
  const write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    const done = (typeof encoding === 'function' ? encoding : callback) as WriteCallback | undefined;
    return stream.write(clean(chunk), done);
  };
  const end = (...args: unknown[]): S => {
    const callback = args.find((a): a is () => void => typeof a === 'function');
    const chunk = typeof args[0] === 'function' ? undefined : args[0];
    let rest = chunk === undefined || chunk === null ? '' : clean(chunk);
    rest += terminalSafeOutput(decoder.end() + (heldCr ? '\r' : ''));
    heldCr = false;
    stream.end(rest, callback);
    return proxy;
  };
  const proxy = new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return write;
      if (property === 'end') return end;
      if (property === STYLED_WRITE) return (text: string) => stream.write(text);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return proxy;
}

/**
 * The streams a command writes to: stdout and stderr through terminalSafeStream (stdin and the
 * environment as they are). Only a full-screen console (Ink draws with escapes of its own, and
 * sanitises every line it draws) is given the raw streams.
 */
export function commandIo(io: Io): Io {
  const stdout = terminalSafeStream(io.stdout);
  const stderr = terminalSafeStream(io.stderr as Stream);
  return {
    stdout,
    stderr,
    get stdin() {
      return io.stdin;
    },
    env: io.env,
  };
}
