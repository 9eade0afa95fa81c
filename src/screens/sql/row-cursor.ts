import type { Entry } from '../../state/sql/store';

/**
 * The selected row of a result browsed full screen. Rows are lines below the sticky header:
 * one line each, or in `.mode line` one line per column plus a blank one between rows. The
 * window (`top`, the first body line shown) follows the row only as far as it has to.
 */
export interface RowLayout {
  rows: number;
  /** Body lines from one row's first line to the next one's. */
  perRow: number;
  /** Body lines that are the row's own (line mode: not the blank one after it). */
  rowLines: number;
}

export interface RowWindow {
  /** Body lines that fit under the sticky header. */
  room: number;
  /** Largest `top` that still fills the window. */
  maxTop: number;
}

export interface RowAt {
  row: number;
  top: number;
}

export type RowMove = { by: number } | { pages: number } | { to: 'first' | 'last' };

/** The row layout of a result entry, or null for anything else (text, lists: they only scroll). */
export function rowLayout(entry: Entry | null): RowLayout | null {
  if (!entry || entry.kind !== 'result') return null;
  const rows = entry.result.rows.length;
  if (entry.mode === 'line') {
    const columns = entry.result.columns.length;
    return { rows, perRow: columns + 1, rowLines: Math.max(1, columns) };
  }
  return { rows, perRow: 1, rowLines: 1 };
}

/** The row clamped to the result (its count can grow while a cursor read goes on). */
export function clampRow(row: number, layout: RowLayout): number {
  return Math.max(0, Math.min(layout.rows - 1, row));
}

/** `top` moved as little as needed for every line of `row` to be in the window. */
export function revealRow(row: number, top: number, layout: RowLayout, win: RowWindow): number {
  const first = row * layout.perRow;
  const last = first + layout.rowLines - 1;
  let t = Math.max(0, Math.min(top, win.maxTop));
  if (first < t) t = first;
  else if (last > t + win.room - 1) t = Math.min(first, last - win.room + 1);
  return Math.max(0, Math.min(win.maxTop, t));
}

/** Where a key takes the selected row and the window; a page moves both, as `less` does. */
export function moveRow(at: RowAt, move: RowMove, layout: RowLayout, win: RowWindow): RowAt {
  if (layout.rows === 0) return { row: 0, top: 0 };
  const from = clampRow(at.row, layout);
  const top = Math.max(0, Math.min(at.top, win.maxTop));
  if ('to' in move) {
    if (move.to === 'first') return { row: 0, top: 0 };
    // the end: the frame's bottom line shows too
    const row = layout.rows - 1;
    return { row, top: revealRow(row, win.maxTop, layout, win) };
  }
  if ('by' in move) {
    const row = clampRow(from + move.by, layout);
    return { row, top: revealRow(row, top, layout, win) };
  }
  const rowsPerPage = Math.max(1, Math.floor(win.room / layout.perRow));
  const row = clampRow(from + move.pages * rowsPerPage, layout);
  const shifted = top + (row - from) * layout.perRow;
  return { row, top: revealRow(row, shifted, layout, win) };
}

/** The lines of the window (index into what is drawn) that belong to the selected row. */
export function selectedLines(row: number, top: number, sticky: number, layout: RowLayout, shownBody: number): Set<number> {
  const out = new Set<number>();
  const first = row * layout.perRow;
  for (let k = 0; k < layout.rowLines; k++) {
    const at = first + k - top;
    if (at >= 0 && at < shownBody) out.add(sticky + at);
  }
  return out;
}
