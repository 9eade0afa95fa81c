import type { Tone } from './tone';
import { fit } from './fit';

/** What a cell shows: text, optionally with a tone (colour by meaning). */
export type Cell = string | number | null | undefined | { text: string; tone?: Tone };

export interface Column<T> {
  id: string;
  header: string;
  /** Fixed width in cells. Columns without width share the rest by flex (default 1). */
  width?: number;
  flex?: number;
  minWidth?: number;
  align?: 'left' | 'right';
  cell: (row: T) => Cell;
  /**
   * The value machine output writes (`get -o csv`), where it differs from the cell: numbers
   * unformatted, times as full ISO UTC, bytes as integers, null for nothing. Default: the cell text.
   */
  raw?: (row: T) => RawValue;
  /** Sort key; default: the cell text. Null sorts last. */
  sortValue?: (row: T) => string | number | null;
  /** False = not offered by the sort key. */
  sortable?: boolean;
}

/** A renderer's columns over another row type (a screen's row that holds or mirrors the resource). */
export function columnsOver<T, R>(columns: readonly Column<T>[], resource: (row: R) => T): Column<R>[] {
  return columns.map(({ cell, raw, sortValue, ...rest }) => ({
    ...rest,
    cell: (row: R) => cell(resource(row)),
    ...(raw ? { raw: (row: R) => raw(resource(row)) } : {}),
    ...(sortValue ? { sortValue: (row: R) => sortValue(resource(row)) } : {}),
  }));
}

/** A column's value for machines: see Column.raw. */
export type RawValue = string | number | boolean | null;

/** What machine output writes for a row in a column: its raw value, else its cell text. */
export function rawValue<T>(column: Pick<Column<T>, 'cell' | 'raw'>, row: T): RawValue {
  return column.raw ? column.raw(row) : cellText(column.cell(row));
}

export function cellText(c: Cell): string {
  if (c === null || c === undefined) return '';
  if (typeof c === 'object') return c.text;
  return String(c);
}

export function cellTone(c: Cell): Tone | undefined {
  return c !== null && typeof c === 'object' ? c.tone : undefined;
}

/** Selection, scroll and sort of one table, kept while its screen is hidden. */
export interface TableView {
  selected: number;
  offset: number;
  sortColumn: string | null;
  sortDesc: boolean;
  /** Wide mode (`w`): cells at full width, the window scrolled sideways by `hOffset` cells. */
  wide?: boolean;
  hOffset?: number;
}

export const defaultTableView: TableView = { selected: 0, offset: 0, sortColumn: null, sortDesc: false };

/** The key under which <Table id> of one screen visit keeps its view state. */
export function tableViewKey(instanceKey: string, tableId: string): string {
  return `${instanceKey}:${tableId}`;
}

export const COLUMN_GAP = 1;

/**
 * Widths for the columns in `total` cells: fixed widths first, then flex shares of the rest
 * (never below minWidth, default 4). When fixed widths do not fit, the last columns shrink.
 */
export function columnWidths(columns: { width?: number; flex?: number; minWidth?: number }[], total: number, gap = COLUMN_GAP): number[] {
  if (columns.length === 0) return [];
  const available = Math.max(0, total - gap * (columns.length - 1));
  const fixed = columns.reduce((n, c) => n + (c.width ?? 0), 0);
  const flexCols = columns.map((c) => (c.width === undefined ? (c.flex ?? 1) : 0));
  const flexTotal = flexCols.reduce((a, b) => a + b, 0);
  const rest = Math.max(0, available - fixed);
  const widths = columns.map((c, i) => {
    if (c.width !== undefined) return c.width;
    const share = flexTotal > 0 ? Math.floor((rest * flexCols[i]!) / flexTotal) : 0;
    return Math.max(c.minWidth ?? 4, share);
  });
  // Hand out rounding leftovers to flex columns, left to right.
  let used = widths.reduce((a, b) => a + b, 0);
  for (let i = 0; used < available && flexTotal > 0; i = (i + 1) % columns.length) {
    if (columns[i]!.width === undefined) {
      widths[i]! += 1;
      used += 1;
    }
  }
  // Too wide: take cells back from the right.
  for (let i = columns.length - 1; used > available && i >= 0; i--) {
    const cut = Math.min(used - available, Math.max(0, widths[i]! - 1));
    widths[i]! -= cut;
    used -= cut;
  }
  return widths;
}

/** One line of a table: every cell cut/padded to its width, joined by the gap. */
export function formatRow(cells: string[], widths: number[], aligns: ('left' | 'right' | undefined)[], gap = COLUMN_GAP): string {
  return cells.map((c, i) => fit(c, widths[i] ?? 0, aligns[i] ?? 'left')).join(' '.repeat(gap));
}

/** Scroll state of a window of `height` rows over `total` rows. */
export interface Viewport {
  selected: number;
  offset: number;
}

/** Keeps the selection inside 0..total-1 and the offset such that the selection is visible. */
export function clampViewport(v: Viewport, total: number, height: number): Viewport {
  if (total <= 0 || height <= 0) return { selected: 0, offset: 0 };
  const selected = Math.min(Math.max(0, v.selected), total - 1);
  let offset = Math.min(Math.max(0, v.offset), Math.max(0, total - height));
  if (selected < offset) offset = selected;
  if (selected >= offset + height) offset = selected - height + 1;
  return { selected, offset };
}

export type NavMove = 'down' | 'up' | 'top' | 'bottom' | 'pageDown' | 'pageUp';

/** Moves the selection; a page is `height` rows and keeps the selection's place in the window. */
export function moveViewport(v: Viewport, move: NavMove, total: number, height: number): Viewport {
  const page = Math.max(1, height);
  switch (move) {
    case 'down':
      return clampViewport({ ...v, selected: v.selected + 1 }, total, height);
    case 'up':
      return clampViewport({ ...v, selected: v.selected - 1 }, total, height);
    case 'top':
      return clampViewport({ selected: 0, offset: 0 }, total, height);
    case 'bottom':
      return clampViewport({ selected: total - 1, offset: total - height }, total, height);
    case 'pageDown':
      return clampViewport({ selected: v.selected + page, offset: v.offset + page }, total, height);
    case 'pageUp':
      return clampViewport({ selected: v.selected - page, offset: v.offset - page }, total, height);
  }
}

/** Row positions [start, end) to render: never more than `height`, whatever the total. */
export function visibleRange(v: Viewport, total: number, height: number): [number, number] {
  const { offset } = clampViewport(v, total, height);
  return [offset, Math.min(total, offset + Math.max(0, height))];
}

/**
 * Indices of the rows whose cells contain the query (case-insensitive); a leading "!" keeps
 * the rows that do NOT contain it. Returns null for an empty query (all rows, no allocation).
 */
export function filterRows<T>(rows: readonly T[], columns: readonly Column<T>[], query: string): number[] | null {
  const q = query.trim();
  if (q === '' || q === '!') return null;
  const invert = q.startsWith('!');
  const needle = (invert ? q.slice(1) : q).toLowerCase();
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let hit = false;
    for (const c of columns) {
      if (cellText(c.cell(row)).toLowerCase().includes(needle)) {
        hit = true;
        break;
      }
    }
    if (hit !== invert) out.push(i);
  }
  return out;
}

// made on the first sort, not at load: the first Intl.Collator of a process costs 10-25 ms of ICU set-up
let collator: Intl.Collator | undefined;

/** Sorts row indices by a column (stable); null keys last in both directions. */
export function sortRows<T>(rows: readonly T[], indices: number[] | null, column: Column<T>, desc: boolean): number[] {
  const idx = indices ? [...indices] : Array.from({ length: rows.length }, (_, i) => i);
  const keyOf = column.sortValue ?? ((r: T) => cellText(column.cell(r)));
  const keys = new Array<string | number | null>(rows.length);
  for (const i of idx) keys[i] = keyOf(rows[i]!);
  const dir = desc ? -1 : 1;
  idx.sort((a, b) => {
    const ka = keys[a] ?? null;
    const kb = keys[b] ?? null;
    if (ka === null || kb === null) return ka === kb ? a - b : ka === null ? 1 : -1;
    let c: number;
    if (typeof ka === 'number' && typeof kb === 'number') c = ka - kb;
    else c = (collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })).compare(String(ka), String(kb));
    return c === 0 ? a - b : c * dir;
  });
  return idx;
}

/** The next sort state for the "sort by next column" key: none -> col1 -> col2 ... -> none. */
export function nextSortColumn(columns: readonly { id: string; sortable?: boolean }[], current: string | null): string | null {
  const ids = columns.filter((c) => c.sortable !== false).map((c) => c.id);
  if (ids.length === 0) return null;
  if (current === null) return ids[0]!;
  const i = ids.indexOf(current);
  return i < 0 || i === ids.length - 1 ? null : ids[i + 1]!;
}
