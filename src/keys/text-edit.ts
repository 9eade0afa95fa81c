import type { KeyEvent } from './key-event';

/** A single-line text value with a cursor; TextField renders it, editText changes it. */
export interface TextState {
  value: string;
  cursor: number;
}

export const emptyText: TextState = { value: '', cursor: 0 };

export function textOf(value: string): TextState {
  return { value, cursor: value.length };
}

/**
 * Applies one key to a text value, readline style. Returns null when the key is not an
 * editing key (so the caller may treat it as an action).
 */
export function editText(s: TextState, ev: KeyEvent): TextState | null {
  const { value, cursor } = s;
  if (ev.text !== null) {
    return { value: value.slice(0, cursor) + ev.text + value.slice(cursor), cursor: cursor + ev.text.length };
  }
  switch (ev.name) {
    case 'backspace':
      if (cursor === 0) return s;
      return { value: value.slice(0, cursor - 1) + value.slice(cursor), cursor: cursor - 1 };
    case 'left':
    case 'shift-left':
    case 'ctrl-b':
      return { value, cursor: Math.max(0, cursor - 1) };
    case 'right':
    case 'shift-right':
    case 'ctrl-f':
      return { value, cursor: Math.min(value.length, cursor + 1) };
    case 'home':
    case 'ctrl-a':
      return { value, cursor: 0 };
    case 'end':
    case 'ctrl-e':
      return { value, cursor: value.length };
    case 'ctrl-u':
      return { value: value.slice(cursor), cursor: 0 };
    case 'ctrl-k':
      return { value: value.slice(0, cursor), cursor };
    case 'ctrl-d':
      return { value: value.slice(0, cursor) + value.slice(cursor + 1), cursor };
    case 'ctrl-w': {
      const before = value.slice(0, cursor).replace(/\S+\s*$/, '');
      return { value: before + value.slice(cursor), cursor: before.length };
    }
    default:
      return null;
  }
}
