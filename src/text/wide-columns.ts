import { cellWidth, dropCells, padCells, takeCells } from './cells';
import { terminalSafe } from './terminal-safe';

/**
 * Wide mode of a table or the log stream: every cell at its full width, the line wider than the
 * screen, and a window of `view` cells scrolled sideways over it. Pure: the widths come from the
 * rows on screen (never the whole data set), so a frame costs the same for any number of rows.
 */

export interface WideLayout {
  /** Width of each column in cells. */
  widths: number[];
  /** Where each column starts on the full line. */
  starts: number[];
  /** Cells of the full line (columns and the gaps between them). */
  total: number;
}

export function wideLayout(widths: readonly number[], gap: number): WideLayout {
  const starts: number[] = [];
  let at = 0;
  for (let i = 0; i < widths.length; i++) {
    starts.push(at);
    at += widths[i]! + (i < widths.length - 1 ? gap : 0);
  }
  return { widths: [...widths], starts, total: at };
}

/**
 * Each column as wide as its widest text among `texts` (the rows drawn now) and its header,
 * never narrower than `min[i]` (what the column had before, so a column does not shrink and
 * jump while scrolling down).
 */
export function naturalWidths(headers: readonly string[], texts: readonly (readonly string[])[], min: readonly number[] = []): number[] {
  return headers.map((h, i) => {
    let w = Math.max(cellWidth(h), min[i] ?? 0);
    for (const row of texts) {
      const t = row[i];
      if (t !== undefined) w = Math.max(w, cellWidth(t));
    }
    return w;
  });
}

/** The largest offset that still fills the window. */
export function maxOffset(layout: WideLayout, view: number): number {
  return Math.max(0, layout.total - Math.max(1, view));
}

export function clampOffset(offset: number, layout: WideLayout, view: number): number {
  return Math.max(0, Math.min(Math.floor(offset), maxOffset(layout, view)));
}

export type SideMove = 'left' | 'right' | 'pageLeft' | 'pageRight' | 'first' | 'last';

/**
 * The next offset: left/right go to the start of the previous/next column (a column wider than
 * the window is crossed a window at a time), page keys a window, first/last to either end.
 */
export function moveSideways(offset: number, move: SideMove, layout: WideLayout, view: number): number {
  const at = clampOffset(offset, layout, view);
  const page = Math.max(1, view);
  switch (move) {
    case 'first':
      return 0;
    case 'last':
      return maxOffset(layout, view);
    case 'pageLeft':
      return clampOffset(at - page, layout, view);
    case 'pageRight':
      return clampOffset(at + page, layout, view);
    case 'right': {
      const next = layout.starts.find((s) => s > at);
      const target = next === undefined || next - at > page ? at + page : next;
      return clampOffset(target, layout, view);
    }
    case 'left': {
      let prev = 0;
      for (const s of layout.starts) if (s < at) prev = s;
      const target = at - prev > page ? at - page : prev;
      return clampOffset(target, layout, view);
    }
  }
}

/** The columns (0-based, inclusive) with at least one cell in the window. */
export function shownColumns(layout: WideLayout, offset: number, view: number): { first: number; last: number } {
  const at = clampOffset(offset, layout, view);
  const end = at + Math.max(1, view);
  let first = -1;
  let last = -1;
  for (let i = 0; i < layout.widths.length; i++) {
    const s = layout.starts[i]!;
    const e = s + layout.widths[i]!;
    if (e > at && s < end) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return first < 0 ? { first: 0, last: 0 } : { first, last };
}

/** "‹ cols 3-7 of 12 ›": which columns are in the window; an arrow on each side with more. */
export function sidewaysIndicator(layout: WideLayout, offset: number, view: number): string {
  const n = layout.widths.length;
  if (n === 0) return 'wide';
  const at = clampOffset(offset, layout, view);
  const { first, last } = shownColumns(layout, at, view);
  const cols = first === last ? `col ${first + 1} of ${n}` : `cols ${first + 1}-${last + 1} of ${n}`;
  return `${at > 0 ? '‹ ' : ''}${cols}${at < maxOffset(layout, view) ? ' ›' : ''}`;
}

/** `view` cells of a line starting at cell `offset`, padded to exactly `view`. */
export function sliceCells(line: string, offset: number, view: number): string {
  const rest = dropCells(line, offset);
  const cut = takeCells(rest, view);
  return cut.width < view ? cut.text + ' '.repeat(view - cut.width) : cut.text;
}

/** One cell's text as a table draws it: line breaks and tabs as spaces, controls escaped. */
export function shownCellText(text: string): string {
  return terminalSafe(/[\r\n\t]/.test(text) ? text.replace(/[\r\n\t]/g, ' ') : text);
}

/**
 * The part of a row inside the window: for each column with a cell in it, the visible piece of
 * the cell (padded to its column, then the gap), with the cell's index for its colour.
 */
export function windowPieces(
  texts: readonly string[],
  layout: WideLayout,
  aligns: readonly ('left' | 'right' | undefined)[],
  offset: number,
  view: number,
  gap: number,
): { text: string; column: number }[] {
  const at = clampOffset(offset, layout, view);
  const end = at + Math.max(0, view);
  const out: { text: string; column: number }[] = [];
  for (let i = 0; i < layout.widths.length; i++) {
    const start = layout.starts[i]!;
    const width = layout.widths[i]! + (i < layout.widths.length - 1 ? gap : 0);
    if (start + width <= at || start >= end) continue;
    const full = padCells(texts[i] ?? '', layout.widths[i]!, aligns[i] ?? 'left') + ' '.repeat(width - layout.widths[i]!);
    const from = Math.max(0, at - start);
    const room = Math.min(start + width, end) - (start + from);
    const piece = takeCells(dropCells(full, from), room);
    out.push({ text: piece.width < room ? piece.text + ' '.repeat(room - piece.width) : piece.text, column: i });
  }
  return out;
}
