import { execFileSync } from 'node:child_process';
import { terminalSafe } from '../text/terminal-safe';

/**
 * Calling the user's attention through the terminal: the bell (BEL, which every terminal takes)
 * and, where the terminal is known to show them, a desktop notification:
 * - OSC 9 (`ESC ] 9 ; text BEL`): iTerm2;
 * - OSC 777 (`ESC ] 777 ; notify ; title ; body BEL`): WezTerm, ghostty, foot, Windows Terminal
 *   (which ignores it before its OSC 777 support);
 * - OSC 99 (`ESC ] 99 ; ; text ESC \`): kitty's own protocol.
 * A terminal is known by TERM_PROGRAM, TERM, LC_TERMINAL (iTerm2 sets it, and ssh passes it on)
 * and the variables each one sets (KITTY_WINDOW_ID, WT_SESSION...). Any other terminal gets the
 * bell only: an escape sequence it does not know could be drawn as garbage.
 *
 * Inside tmux, the terminal outside is the one tmux heard from (#{client_termname} and the
 * XTVERSION reply #{client_termtype}); tmux passes a program's OSC on only through its DCS
 * passthrough, and only with `allow-passthrough on` (off by default since tmux 3.3). So the
 * notification is wrapped and sent only when tmux says passthrough is allowed, as the clipboard
 * does for OSC 52 (src/clipboard). GNU screen gets the bell only.
 *
 * The text contains record data: it goes through the sanitiser, loses the `;` that separates
 * OSC fields, and is cut to a length every terminal takes.
 */

export type NotifyProtocol = 'osc9' | 'osc777' | 'osc99';

const ESC = '\x1b';
export const BEL = '\x07';
const ST = `${ESC}\\`;
const MAX_TEXT = 240;

/** What tmux says about the pane and the terminal attached to it. */
export interface TmuxNotifyInfo {
  allowPassthrough: boolean;
  /** The outer terminal's TERM, e.g. xterm-kitty. */
  termName: string;
  /** Its XTVERSION answer, e.g. "WezTerm 20240203", "iTerm2 3.5.0" (empty when it gave none). */
  termType: string;
}

/** The protocol for a terminal known by these names (lower case, any order), or null. */
export function protocolForNames(names: string): NotifyProtocol | null {
  if (/kitty/.test(names)) return 'osc99';
  if (/iterm/.test(names)) return 'osc9';
  if (/wezterm|ghostty|(^|[\s|])foot|windows-terminal/.test(names)) return 'osc777';
  return null;
}

/** The names a terminal goes by in this environment (and tmux's view of the terminal outside). */
export function terminalNames(env: Record<string, string | undefined>, tmux: TmuxNotifyInfo | null): string {
  const names: string[] = [];
  if (env.TMUX) {
    // TERM and TERM_PROGRAM name tmux itself there
    if (tmux) names.push(tmux.termName, tmux.termType);
  } else {
    names.push(env.TERM ?? '', env.TERM_PROGRAM ?? '');
    if (env.KITTY_WINDOW_ID) names.push('kitty');
    if (env.WEZTERM_PANE) names.push('wezterm');
    if (env.GHOSTTY_RESOURCES_DIR) names.push('ghostty');
  }
  // these pass through ssh and tmux (the server must accept them: AcceptEnv LC_*)
  names.push(env.LC_TERMINAL ?? '');
  if (env.WT_SESSION) names.push('windows-terminal');
  return names.filter(Boolean).join('|').toLowerCase();
}

/** How a notification would go out here, or null when it would not (bell only). */
export function notifyRoute(env: Record<string, string | undefined>, tmux: TmuxNotifyInfo | null): { protocol: NotifyProtocol; tmux: boolean } | null {
  if (env.STY) return null;
  if (env.TMUX && !tmux?.allowPassthrough) return null;
  const protocol = protocolForNames(terminalNames(env, tmux));
  return protocol ? { protocol, tmux: Boolean(env.TMUX) } : null;
}

/** Text for inside an OSC string: no control characters, no field separators, not too long. */
function oscText(text: string): string {
  const safe = terminalSafe(text).replace(/;/g, ',');
  return safe.length > MAX_TEXT ? `${safe.slice(0, MAX_TEXT - 1)}…` : safe;
}

export function notificationSequence(protocol: NotifyProtocol, title: string, body: string): string {
  const t = oscText(title);
  const b = oscText(body);
  switch (protocol) {
    case 'osc9':
      return `${ESC}]9;${t}: ${b}${BEL}`;
    case 'osc777':
      return `${ESC}]777;notify;${t};${b}${BEL}`;
    case 'osc99':
      return `${ESC}]99;;${t}: ${b}${ST}`;
  }
}

/** tmux's DCS passthrough: ESC P tmux; <sequence with each ESC doubled> ESC \. */
export function tmuxWrap(sequence: string): string {
  return `${ESC}Ptmux;${sequence.split(ESC).join(ESC + ESC)}${ST}`;
}

/** Every byte to write for one call for attention: the bell, then the notification where it is shown. */
export function attentionBytes(title: string, body: string, env: Record<string, string | undefined>, tmux: TmuxNotifyInfo | null): string {
  const route = notifyRoute(env, tmux);
  if (!route) return BEL;
  const seq = notificationSequence(route.protocol, title, body);
  return BEL + (route.tmux ? tmuxWrap(seq) : seq);
}

export function parseTmuxNotifyInfo(output: string): TmuxNotifyInfo | null {
  const parts = output.replace(/\n$/, '').split('\t');
  if (parts.length !== 3) return null;
  return { allowPassthrough: !['', '0', 'off'].includes(parts[0]!.trim()), termName: parts[1]!.trim(), termType: parts[2]!.trim() };
}

/** Asks the tmux server this process runs under; null outside tmux or when it cannot be asked. */
export function readTmuxNotifyInfo(env: Record<string, string | undefined>): TmuxNotifyInfo | null {
  if (!env.TMUX) return null;
  try {
    const target = env.TMUX_PANE ? ['-t', env.TMUX_PANE] : [];
    const out = execFileSync('tmux', ['display-message', '-p', ...target, '#{allow-passthrough}\t#{client_termname}\t#{client_termtype}'], {
      env: env as NodeJS.ProcessEnv,
      encoding: 'utf8',
      timeout: 1000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return parseTmuxNotifyInfo(out);
  } catch {
    return null;
  }
}
