/**
 * Copying to the user's clipboard through the terminal (OSC 52), which works over SSH: the
 * terminal on the user's machine sets its clipboard. Multiplexers stand in between:
 * - tmux handles a plain OSC 52 itself when `set-clipboard` is `on` (it keeps a paste buffer and
 *   passes the copy to the outer terminal); under its default `external` it drops what programs
 *   send. A DCS passthrough wrapper only works with `allow-passthrough on` (off by default since
 *   tmux 3.3). So inside tmux the route follows tmux's own options (see tmux.ts), and when no
 *   route is open nothing is sent and the status line says how to open one.
 * - GNU screen has no OSC 52 support: the sequence is sent, and the status says it may be lost.
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

/** tmux's options that decide whether a program's OSC 52 gets anywhere; null when they could not be read. */
export interface TmuxClipboardOptions {
  setClipboard: string;
  allowPassthrough: boolean;
}

/**
 * How a copy leaves burrow:
 * - `osc52`: straight to the terminal;
 * - `tmux`: a plain OSC 52 that tmux takes (set-clipboard on);
 * - `tmux-passthrough`: wrapped, for tmux with allow-passthrough on but set-clipboard not on;
 * - `tmux-unknown`: a plain OSC 52, but tmux's options could not be read, so it may be dropped;
 * - `tmux-closed`: tmux would drop it: nothing is sent;
 * - `screen`: a plain OSC 52 inside GNU screen, which usually drops it.
 */
export type ClipboardRoute = 'osc52' | 'tmux' | 'tmux-passthrough' | 'tmux-unknown' | 'tmux-closed' | 'screen';

export function clipboardRoute(env: Record<string, string | undefined>, tmux: TmuxClipboardOptions | null): ClipboardRoute {
  if (env.TMUX) {
    if (!tmux) return 'tmux-unknown';
    if (tmux.setClipboard === 'on') return 'tmux';
    return tmux.allowPassthrough ? 'tmux-passthrough' : 'tmux-closed';
  }
  if (env.STY) return 'screen';
  return 'osc52';
}

/** The bytes to write for copying `text` by `route` ('' for a closed route). */
export function clipboardSequence(text: string, route: ClipboardRoute): string {
  if (route === 'tmux-closed') return '';
  const seq = osc52(text);
  return route === 'tmux-passthrough' ? tmuxPassthrough(seq) : seq;
}

/**
 * The longest clipboard sequence we send, in bytes (base64 and tmux wrapping included). Terminals
 * bound one OSC string and drop a longer one, or cut it, without a word: hterm (ChromeOS Secure
 * Shell) stops at 100,000 bytes, and tmux, screen and xterm builds have limits of their own. A
 * copy that might arrive cut is worse than none, so past this the copy is refused, and said so.
 */
export const OSC52_MAX_BYTES = 100_000;

export type ClipboardWrite =
  | { ok: true; sequence: string; route: Exclude<ClipboardRoute, 'tmux-closed'> }
  | { ok: false; reason: 'too-large'; bytes: number; sequenceBytes: number }
  | { ok: false; reason: 'tmux-closed'; setClipboard: string };

/** Bytes of clipboardSequence() for a text of `textBytes` bytes, without encoding it. */
export function sequenceLength(textBytes: number, route: ClipboardRoute): number {
  if (route === 'tmux-closed') return 0;
  // ESC ] 52 ; c ; <base64> BEL; the passthrough adds ESC P tmux ; ... ESC \ and doubles the one ESC inside
  return 4 * Math.ceil(textBytes / 3) + 8 + (route === 'tmux-passthrough' ? 10 : 0);
}

/** The sequence for `text`, or why not: its size is known before anything is encoded. */
export function clipboardWrite(text: string, env: Record<string, string | undefined>, tmux: TmuxClipboardOptions | null = null): ClipboardWrite {
  const route = clipboardRoute(env, tmux);
  if (route === 'tmux-closed') return { ok: false, reason: 'tmux-closed', setClipboard: tmux?.setClipboard ?? '?' };
  const bytes = Buffer.byteLength(text, 'utf8');
  const sequenceBytes = sequenceLength(bytes, route);
  if (sequenceBytes > OSC52_MAX_BYTES) return { ok: false, reason: 'too-large', bytes, sequenceBytes };
  return { ok: true, sequence: clipboardSequence(text, route), route };
}

/** Most text (bytes of UTF-8) that fits in one plain sequence. */
export const OSC52_MAX_TEXT_BYTES = Math.floor((OSC52_MAX_BYTES - 8) / 4) * 3;

const kb = (n: number) => `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)} kB`;

/**
 * The status line after a copy of `what` (a field name, "the record's JSON"...). Short: it shares
 * the line with the refresh age at 80 columns, and a longer one is not shown at all.
 */
export function copyStatus(what: string, result: ClipboardWrite): { text: string; level: 'info' | 'warn' } {
  if (result.ok) {
    switch (result.route) {
      case 'osc52':
        return { text: `copied ${what} to the clipboard (OSC 52)`, level: 'info' };
      case 'tmux':
        return { text: `copied ${what} (OSC 52 via tmux set-clipboard)`, level: 'info' };
      case 'tmux-passthrough':
        return { text: `copied ${what} (OSC 52 via tmux passthrough)`, level: 'info' };
      case 'tmux-unknown':
        return { text: `sent ${what} (OSC 52); tmux needs set-clipboard on`, level: 'warn' };
      case 'screen':
        return { text: `sent ${what} (OSC 52); GNU screen may drop it`, level: 'warn' };
    }
  }
  if (result.reason === 'tmux-closed') {
    return { text: `not copied: tmux drops OSC 52; set -s set-clipboard on`, level: 'warn' };
  }
  return { text: `not copied: ${what} is ${kb(result.bytes)}, over the ${kb(OSC52_MAX_TEXT_BYTES)} OSC 52 limit`, level: 'warn' };
}
