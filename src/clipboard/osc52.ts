/**
 * Copying to the user's clipboard through the terminal (OSC 52), which works over SSH: the
 * terminal on the user's machine sets its clipboard. Inside tmux the sequence is wrapped in a
 * DCS passthrough (every ESC inside doubled) so tmux hands it to the outer terminal; tmux needs
 * `set -g allow-passthrough on` (or `set-clipboard on`, which tmux handles itself).
 */

const ESC = '\x1b';
const BEL = '\x07';

/** OSC 52 "set clipboard" for `text`: ESC ] 52 ; c ; base64 BEL. */
export function osc52(text: string): string {
  return `${ESC}]52;c;${Buffer.from(text, 'utf8').toString('base64')}${BEL}`;
}

/** tmux passthrough: ESC P tmux; <sequence with each ESC doubled> ESC \. */
export function tmuxPassthrough(sequence: string): string {
  return `${ESC}Ptmux;${sequence.split(ESC).join(ESC + ESC)}${ESC}\\`;
}

/** The bytes to write for copying `text`, given the environment (TMUX set = inside tmux). */
export function clipboardSequence(text: string, env: Record<string, string | undefined>): string {
  const seq = osc52(text);
  return env.TMUX ? tmuxPassthrough(seq) : seq;
}

/**
 * The longest clipboard sequence we send, in bytes (base64 and tmux wrapping included). Terminals
 * bound one OSC string and drop a longer one, or cut it, without a word: hterm (ChromeOS Secure
 * Shell) stops at 100,000 bytes, and tmux, screen and xterm builds have limits of their own. A
 * copy that might arrive cut is worse than none, so past this the copy is refused, and said so.
 */
export const OSC52_MAX_BYTES = 100_000;

export type ClipboardWrite =
  | { ok: true; sequence: string; via: 'osc52' | 'osc52-tmux' }
  | { ok: false; bytes: number; sequenceBytes: number };

/** Bytes of clipboardSequence() for a text of `textBytes` bytes, without encoding it. */
export function sequenceLength(textBytes: number, env: Record<string, string | undefined>): number {
  // ESC ] 52 ; c ; <base64> BEL; tmux adds ESC P tmux ; ... ESC \ and doubles the one ESC inside
  return 4 * Math.ceil(textBytes / 3) + 8 + (env.TMUX ? 10 : 0);
}

/** The sequence for `text`, or why not: its size is known before anything is encoded. */
export function clipboardWrite(text: string, env: Record<string, string | undefined>): ClipboardWrite {
  const bytes = Buffer.byteLength(text, 'utf8');
  const sequenceBytes = sequenceLength(bytes, env);
  if (sequenceBytes > OSC52_MAX_BYTES) return { ok: false, bytes, sequenceBytes };
  return { ok: true, sequence: clipboardSequence(text, env), via: env.TMUX ? 'osc52-tmux' : 'osc52' };
}

/** Most text (bytes of UTF-8) that fits in one sequence outside tmux. */
export const OSC52_MAX_TEXT_BYTES = Math.floor((OSC52_MAX_BYTES - 8) / 4) * 3;

const kb = (n: number) => `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)} kB`;

/** The status line after a copy of `what` (a field name, "the record's JSON"...). */
export function copyStatus(what: string, result: ClipboardWrite): { text: string; level: 'info' | 'warn' } {
  if (result.ok) return { text: `copied ${what} to the clipboard (OSC 52${result.via === 'osc52-tmux' ? ' through tmux' : ''})`, level: 'info' };
  return {
    // short: it shares the status line with the refresh age, at 80 columns
    text: `not copied: ${what} is ${kb(result.bytes)}, over the ${kb(OSC52_MAX_TEXT_BYTES)} OSC 52 limit`,
    level: 'warn',
  };
}
