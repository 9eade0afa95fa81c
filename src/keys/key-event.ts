import type { Key } from 'ink';

/**
 * One key press in burrow's own terms. `name` is the canonical key name used by the keymap
 * ('j', 'G', ':', 'space', 'enter', 'esc', 'tab', 'shift-tab', 'up', 'pgdn', 'ctrl-c', 'alt-x'...).
 * `text` is set for printable input: what a text field inserts.
 */
export interface KeyEvent {
  name: string;
  text: string | null;
}

const SPECIAL_NAMES = [
  'space',
  'enter',
  'esc',
  'tab',
  'shift-tab',
  'backspace',
  'up',
  'down',
  'left',
  'right',
  'shift-left',
  'shift-right',
  'pgup',
  'pgdn',
  'home',
  'end',
] as const;
const SPECIAL = new Set<string>(SPECIAL_NAMES);

/** Key names a user may write in `keys:` of the config file. */
export function isValidKeyName(name: string): boolean {
  if (SPECIAL.has(name)) return true;
  if (/^ctrl-[a-z]$/.test(name)) return true;
  if (/^alt-[\x21-\x7e]$/.test(name)) return true;
  return [...name].length === 1 && /^[\x21-\x7e]$/.test(name);
}

export function describeValidKeyNames(): string {
  return `a single printable character (j, G, /, ?), ${SPECIAL_NAMES.join(', ')}, ctrl-a..ctrl-z or alt-<char>`;
}

/** How the help overlay and key hints show a key. */
export function displayKey(name: string): string {
  const pretty: Record<string, string> = {
    up: '↑',
    down: '↓',
    left: '←',
    right: '→',
    'shift-left': 'shift-←',
    'shift-right': 'shift-→',
    pgup: 'PgUp',
    pgdn: 'PgDn',
    home: 'Home',
    end: 'End',
    enter: 'enter',
    esc: 'esc',
    tab: 'tab',
    'shift-tab': 'shift-tab',
    space: 'space',
    backspace: 'backspace',
  };
  return pretty[name] ?? name;
}

/** One control character as a key name, or null for printable characters. */
function controlName(ch: string): string | null {
  const code = ch.charCodeAt(0);
  if (ch === '\r' || ch === '\n') return 'enter';
  if (ch === '\t') return 'tab';
  if (ch === '\x7f' || ch === '\b') return 'backspace';
  if (ch === '\x1b') return 'esc';
  if (code >= 1 && code <= 26) return `ctrl-${String.fromCharCode(code + 96)}`;
  if (code < 32) return `ctrl-${code}`;
  return null;
}

function fromChar(ch: string): KeyEvent {
  const control = controlName(ch);
  if (control) return { name: control, text: null };
  return { name: ch === ' ' ? 'space' : ch, text: ch };
}

/**
 * Turns what Ink's useInput reports into key events. A chunk of several characters (a paste,
 * or keys typed faster than one read) becomes one event per character, except runs of
 * printable text which a text field may take whole: the caller decides (see splitText).
 */
export function keyEventsFromInk(input: string, key: Key): KeyEvent[] {
  if (key.upArrow) return [{ name: 'up', text: null }];
  if (key.downArrow) return [{ name: 'down', text: null }];
  if (key.leftArrow) return [{ name: key.shift ? 'shift-left' : 'left', text: null }];
  if (key.rightArrow) return [{ name: key.shift ? 'shift-right' : 'right', text: null }];
  if (key.pageUp) return [{ name: 'pgup', text: null }];
  if (key.pageDown) return [{ name: 'pgdn', text: null }];
  if (key.home) return [{ name: 'home', text: null }];
  if (key.end) return [{ name: 'end', text: null }];
  if (key.return) return [{ name: 'enter', text: null }];
  if (key.tab) return [{ name: key.shift ? 'shift-tab' : 'tab', text: null }];
  // Most terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`.
  if (key.backspace || key.delete) return [{ name: 'backspace', text: null }];
  if (key.escape) return [{ name: 'esc', text: null }];
  if (key.ctrl && /^[a-z]$/i.test(input)) return [{ name: `ctrl-${input.toLowerCase()}`, text: null }];
  if (key.meta && [...input].length === 1) return [{ name: `alt-${input}`, text: null }];
  if (input === '') return [];
  return [...input].map(fromChar);
}
