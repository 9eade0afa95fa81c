import type { KeyEvent } from '../keys/key-event';

/** The REPL's input: several lines in one string, and the cursor as an offset into it. */
export interface EditorState {
  text: string;
  cursor: number;
}

export const emptyEditor: EditorState = { text: '', cursor: 0 };

export function editorOf(text: string): EditorState {
  return { text, cursor: text.length };
}

function lineStart(text: string, cursor: number): number {
  return text.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEnd(text: string, cursor: number): number {
  const i = text.indexOf('\n', cursor);
  return i < 0 ? text.length : i;
}

/** Row and column (0-based, in UTF-16 units) of the cursor. */
export function cursorPosition(s: EditorState): { row: number; col: number } {
  let row = 0;
  for (let i = s.text.indexOf('\n'); i >= 0 && i < s.cursor; i = s.text.indexOf('\n', i + 1)) row++;
  return { row, col: s.cursor - lineStart(s.text, s.cursor) };
}

export function onFirstLine(s: EditorState): boolean {
  return s.text.lastIndexOf('\n', s.cursor - 1) < 0;
}

export function onLastLine(s: EditorState): boolean {
  return s.text.indexOf('\n', s.cursor) < 0;
}

export function insertText(s: EditorState, t: string): EditorState {
  return { text: s.text.slice(0, s.cursor) + t + s.text.slice(s.cursor), cursor: s.cursor + t.length };
}

/** Replaces [start, end) with `t` and puts the cursor after it (completion). */
export function replaceRange(s: EditorState, start: number, end: number, t: string): EditorState {
  return { text: s.text.slice(0, start) + t + s.text.slice(end), cursor: start + t.length };
}

/** Moves the cursor one line up (-1) or down (1), keeping the column; null at the first/last line. */
export function moveLine(s: EditorState, delta: -1 | 1): EditorState | null {
  const start = lineStart(s.text, s.cursor);
  const col = s.cursor - start;
  if (delta < 0) {
    if (start === 0) return null;
    const prevStart = lineStart(s.text, start - 1);
    return { text: s.text, cursor: Math.min(prevStart + col, start - 1) };
  }
  const end = lineEnd(s.text, s.cursor);
  if (end === s.text.length) return null;
  const nextStart = end + 1;
  return { text: s.text, cursor: Math.min(nextStart + col, lineEnd(s.text, nextStart)) };
}

/**
 * Applies one editing key, readline style, to the line the cursor is on (backspace at a line's
 * start joins it to the previous one). Returns null when the key is not an editing key.
 */
export function editKey(s: EditorState, ev: KeyEvent): EditorState | null {
  const { text, cursor } = s;
  if (ev.text !== null) return insertText(s, ev.text);
  switch (ev.name) {
    case 'backspace':
      if (cursor === 0) return s;
      // a surrogate pair goes as one character
      {
        const code = text.charCodeAt(cursor - 1);
        const n = code >= 0xdc00 && code <= 0xdfff && cursor >= 2 ? 2 : 1;
        return { text: text.slice(0, cursor - n) + text.slice(cursor), cursor: cursor - n };
      }
    case 'ctrl-d':
      return { text: text.slice(0, cursor) + text.slice(cursor + 1), cursor };
    case 'left':
    case 'shift-left':
    case 'ctrl-b':
      return { text, cursor: Math.max(0, cursor - 1) };
    case 'right':
    case 'shift-right':
    case 'ctrl-f':
      return { text, cursor: Math.min(text.length, cursor + 1) };
    case 'home':
    case 'ctrl-a':
      return { text, cursor: lineStart(text, cursor) };
    case 'end':
    case 'ctrl-e':
      return { text, cursor: lineEnd(text, cursor) };
    case 'ctrl-u': {
      const start = lineStart(text, cursor);
      return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
    }
    case 'ctrl-k': {
      const end = lineEnd(text, cursor);
      // at the end of a line, ctrl-k joins the next line (as in readline's multi-line editors)
      const to = end === cursor && end < text.length ? end + 1 : end;
      return { text: text.slice(0, cursor) + text.slice(to), cursor };
    }
    case 'ctrl-w': {
      const start = lineStart(text, cursor);
      const before = text.slice(start, cursor).replace(/\S+\s*$/, '');
      return { text: text.slice(0, start) + before + text.slice(cursor), cursor: start + before.length };
    }
    default:
      return null;
  }
}
