import { blobHex, distinctKeys, valueJson, valueText, type SqlValue } from '../api/database/values';
import { terminalSafe } from '../text/terminal-safe';
import { cellWidth, dropCells, fitCells, padCells } from '../text/cells';

/**
 * How result sets are written, on screen and to files (`.mode`). Two forms of each mode:
 * - screenSource(): lines made lazily, one at a time, for a window of a result that may hold
 *   100,000 rows. Cells are truncated to a column width and can be scrolled sideways; NULL and
 *   blobs are marked so the screen can draw them distinctly.
 * - resultText(): the full text, nothing truncated, for `.output FILE`.
 */

export const OUTPUT_MODES = ['table', 'box', 'csv', 'json', 'line', 'markdown'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export function isOutputMode(s: string): s is OutputMode {
  return (OUTPUT_MODES as readonly string[]).includes(s);
}

export type SegmentKind = 'null' | 'blob' | 'number' | 'text' | 'header' | 'border';

export interface Segment {
  text: string;
  kind: SegmentKind;
}

export type StyledLine = Segment[];

export interface ResultSet {
  columns: string[];
  rows: SqlValue[][];
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

const BLOB_PREVIEW_BYTES = 16;

/** Control characters would drive the terminal: newlines become ↵, tabs a space (as in tables), the rest visible escapes. */
function printable(s: string): string {
  return terminalSafe(/[\r\n\t]/.test(s) ? s.replace(/\r\n|\n|\r/g, '↵').replace(/\t/g, ' ') : s);
}

/** A value as the screen shows it: NULL (drawn dim), x'0aff…' (size) for blobs, REALs as 1.0. */
export function displayValue(v: SqlValue): Segment {
  if (v === null) return { text: 'NULL', kind: 'null' };
  if (typeof v === 'bigint' || typeof v === 'number') return { text: valueText(v), kind: 'number' };
  if (typeof v === 'string') return { text: printable(v), kind: 'text' };
  const shown = v.byteLength > BLOB_PREVIEW_BYTES ? v.subarray(0, BLOB_PREVIEW_BYTES) : v;
  return { text: `x'${blobHex(shown)}${v.byteLength > BLOB_PREVIEW_BYTES ? '…' : ''}' (${formatBytes(v.byteLength)})`, kind: 'blob' };
}

/** A value as files show it in the human modes (table, box, line, markdown): nothing cut. */
function fileValue(v: SqlValue): string {
  return typeof v === 'string' ? printable(v) : valueText(v);
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvLine(values: readonly string[]): string {
  return values.map(csvField).join(',');
}

/** Row objects' keys, quoted once per result: repeated column names made distinct (id, id_2). */
const jsonKeyCache = new WeakMap<readonly string[], string[]>();
function jsonKeys(columns: readonly string[]): string[] {
  let keys = jsonKeyCache.get(columns);
  if (!keys) {
    keys = distinctKeys(columns).map((c) => JSON.stringify(c));
    jsonKeyCache.set(columns, keys);
  }
  return keys;
}

function jsonRow(columns: readonly string[], row: readonly SqlValue[]): string {
  const keys = jsonKeys(columns);
  let s = '{';
  for (let k = 0; k < keys.length; k++) s += `${k ? ',' : ''}${keys[k]}:${valueJson(row[k] ?? null)}`;
  return `${s}}`;
}

interface Frame {
  tl: string;
  tm: string;
  tr: string;
  ml: string;
  mm: string;
  mr: string;
  bl: string;
  bm: string;
  br: string;
  h: string;
  v: string;
}

const FRAMES: Record<'table' | 'box' | 'markdown', Frame> = {
  table: { tl: '+', tm: '+', tr: '+', ml: '+', mm: '+', mr: '+', bl: '+', bm: '+', br: '+', h: '-', v: '|' },
  box: { tl: '┌', tm: '┬', tr: '┐', ml: '├', mm: '┼', mr: '┤', bl: '└', bm: '┴', br: '┘', h: '─', v: '│' },
  markdown: { tl: '', tm: '', tr: '', ml: '|', mm: '|', mr: '|', bl: '', bm: '', br: '', h: '-', v: '|' },
};

/**
 * Column widths from the header and a sample of rows (the first `sample` and the last fifth as
 * many: ids and dates tend to grow), each at most `maxWidth` cells (0 = no limit). Measuring a
 * sample keeps a 100,000-row result cheap; a wider cell elsewhere is cut with … like any other.
 */
export function gridWidths(result: ResultSet, options: { maxWidth?: number; sample?: number; text?: (v: SqlValue) => string } = {}): number[] {
  const max = options.maxWidth ?? 40;
  const n = result.rows.length;
  const head = Math.min(n, options.sample ?? 1000);
  const tail = Math.max(head, n - Math.ceil(head / 5));
  const text = options.text ?? ((v: SqlValue) => displayValue(v).text);
  const widths = result.columns.map((c) => Math.max(1, cellWidth(c)));
  const measure = (r: number) => {
    const row = result.rows[r]!;
    for (let k = 0; k < widths.length; k++) {
      const w = cellWidth(text(row[k] ?? null));
      if (w > widths[k]!) widths[k] = w;
    }
  };
  for (let r = 0; r < head; r++) measure(r);
  for (let r = tail; r < n; r++) measure(r);
  return max > 0 ? widths.map((w) => Math.min(w, max)) : widths;
}

/** A result laid out as lines, made one at a time. */
export interface LineSource {
  /** Total number of lines. */
  count: number;
  /** Leading lines (the header) to keep in view while the rest scrolls. */
  sticky: number;
  /** Sideways positions: columns for grid modes, steps of HSTEP cells for the others. */
  hPositions: number;
  /**
   * Line `index` scrolled `hOffset` positions sideways. With `maxWidth`, a grid stops after the
   * first cell that reaches past it (the caller cuts the line; nothing past the screen is made).
   */
  line(index: number, hOffset: number, maxWidth?: number): StyledLine;
}

export const HSTEP = 8;

function gridSource(result: ResultSet, mode: 'table' | 'box' | 'markdown', widths: number[]): LineSource {
  const f = FRAMES[mode];
  const n = result.rows.length;
  const framed = mode !== 'markdown';
  /** Columns from `from` that start within `maxWidth` cells (one more to show the line goes on). */
  const upTo = (from: number, maxWidth: number | undefined) => {
    if (maxWidth === undefined) return widths.length;
    let w = 1;
    let k = from;
    while (k < widths.length && w <= maxWidth) w += widths[k++]! + 3;
    return k;
  };
  const border = (from: number, to: number, l: string, m: string, r: string): StyledLine => [
    {
      text:
        l +
        widths
          .slice(from, to)
          .map((w) => f.h.repeat(w + 2))
          .join(m) +
        (to < widths.length ? m : r),
      kind: 'border',
    },
  ];
  const cells = (from: number, to: number, value: (k: number) => Segment, header: boolean): StyledLine => {
    const out: StyledLine = [{ text: f.v, kind: 'border' }];
    for (let k = from; k < to; k++) {
      const seg = value(k);
      const align = !header && seg.kind === 'number' ? 'right' : 'left';
      out.push({ text: ` ${fitCells(seg.text, widths[k]!, align)} `, kind: header ? 'header' : seg.kind });
      out.push({ text: f.v, kind: 'border' });
    }
    return out;
  };
  const headerSegs = result.columns.map((c) => ({ text: printable(c), kind: 'header' as const }));
  const top = framed ? 1 : 0;
  return {
    count: n + (framed ? 4 : 2),
    sticky: framed ? 3 : 2,
    hPositions: widths.length,
    line(i, h, maxWidth) {
      const from = Math.max(0, Math.min(h, widths.length - 1));
      const to = upTo(from, maxWidth);
      if (framed && i === 0) return border(from, to, f.tl, f.tm, f.tr);
      if (i === top) return cells(from, to, (k) => headerSegs[k]!, true);
      if (i === top + 1) return border(from, to, f.ml, f.mm, f.mr);
      const r = i - top - 2;
      if (r < n) {
        const row = result.rows[r]!;
        return cells(from, to, (k) => displayValue(row[k] ?? null), false);
      }
      return border(from, to, f.bl, f.bm, f.br);
    },
  };
}

function shift(text: string, h: number): string {
  return h <= 0 ? text : dropCells(text, h * HSTEP);
}

function textSource(count: number, sticky: number, make: (i: number) => StyledLine, longest: () => number): LineSource {
  let positions: number | null = null;
  return {
    count,
    sticky,
    get hPositions() {
      positions ??= Math.max(1, Math.ceil(longest() / HSTEP));
      return positions;
    },
    line(i, h) {
      const segs = make(i);
      if (h <= 0) return segs;
      return [{ text: shift(segs.map((s) => s.text).join(''), h), kind: 'text' }];
    },
  };
}

/** A result on screen in `mode`: lazily made lines, cells cut to `maxColumnWidth`. */
export function screenSource(result: ResultSet, mode: OutputMode, options: { maxColumnWidth?: number; sample?: number } = {}): LineSource {
  const { columns, rows } = result;
  const n = rows.length;
  const sampleLongest = (lineText: (i: number) => string, count: number) => () => {
    let m = 0;
    for (let i = 0; i < Math.min(count, 200); i++) m = Math.max(m, cellWidth(lineText(i)));
    return m;
  };
  switch (mode) {
    case 'table':
    case 'box':
    case 'markdown':
      return gridSource(result, mode, gridWidths(result, { maxWidth: options.maxColumnWidth ?? 40, sample: options.sample }));
    case 'csv': {
      const text = (i: number) => (i === 0 ? csvLine(columns) : csvLine(rows[i - 1]!.map((v) => valueText(v ?? null, ''))));
      return textSource(n + 1, 1, (i) => [{ text: printable(text(i)), kind: i === 0 ? 'header' : 'text' }], sampleLongest(text, n + 1));
    }
    case 'json': {
      const text = (i: number) => `${i === 0 ? '[' : ''}${jsonRow(columns, rows[i]!)}${i < n - 1 ? ',' : ']'}`;
      if (n === 0)
        return textSource(
          1,
          0,
          () => [{ text: '[]', kind: 'text' }],
          () => 2,
        );
      return textSource(n, 0, (i) => [{ text: text(i), kind: 'text' }], sampleLongest(text, n));
    }
    case 'line': {
      const nameWidth = Math.max(1, ...columns.map((c) => cellWidth(c)));
      const per = columns.length + 1;
      const make = (i: number): StyledLine => {
        const r = Math.floor(i / per);
        const k = i % per;
        if (k === columns.length) return [{ text: '', kind: 'text' }];
        const v = displayValue(rows[r]![k] ?? null);
        return [{ text: `${fitCells(printable(columns[k]!), nameWidth, 'right')} = `, kind: 'header' }, v];
      };
      return textSource(
        n === 0 ? 0 : n * per - 1,
        0,
        make,
        sampleLongest(
          (i) =>
            make(i)
              .map((s) => s.text)
              .join(''),
          Math.min(n * per, 400),
        ),
      );
    }
  }
}

/** The whole result as text lines in `mode`, nothing truncated (for `.output FILE`). */
export function* resultText(result: ResultSet, mode: OutputMode): Generator<string> {
  const { columns, rows } = result;
  switch (mode) {
    case 'table':
    case 'box':
    case 'markdown': {
      const widths = gridWidths(result, { maxWidth: 0, sample: rows.length, text: fileValue });
      const f = FRAMES[mode];
      const framed = mode !== 'markdown';
      const border = (l: string, m: string, r: string) => l + widths.map((w) => f.h.repeat(w + 2)).join(m) + r;
      const line = (values: string[], numeric: boolean[]) =>
        f.v + values.map((v, k) => ` ${padCells(v, widths[k]!, numeric[k] ? 'right' : 'left')} `).join(f.v) + f.v;
      if (framed) yield border(f.tl, f.tm, f.tr);
      yield line(
        columns,
        columns.map(() => false),
      );
      yield border(f.ml, f.mm, f.mr);
      for (const row of rows)
        yield line(
          row.map((v) => fileValue(v ?? null)),
          row.map((v) => typeof v === 'bigint' || typeof v === 'number'),
        );
      if (framed) yield border(f.bl, f.bm, f.br);
      return;
    }
    case 'csv':
      yield csvLine(columns);
      for (const row of rows) yield csvLine(row.map((v) => valueText(v ?? null, '')));
      return;
    case 'json':
      if (rows.length === 0) {
        yield '[]';
        return;
      }
      for (let i = 0; i < rows.length; i++) yield `${i === 0 ? '[' : ''}${jsonRow(columns, rows[i]!)}${i < rows.length - 1 ? ',' : ']'}`;
      return;
    case 'line': {
      const nameWidth = Math.max(1, ...columns.map((c) => cellWidth(c)));
      for (let r = 0; r < rows.length; r++) {
        if (r > 0) yield '';
        for (let k = 0; k < columns.length; k++) yield `${padCells(columns[k]!, nameWidth, 'right')} = ${fileValue(rows[r]![k] ?? null)}`;
      }
      return;
    }
  }
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export interface Summary {
  columns: readonly string[];
  rowCount: number;
  rowsAffected: number;
  lastInsertRowid: bigint | string | null;
  durationMs: number;
}

/** "3 rows · 12 ms", "1 row affected · last insert rowid 42 · 3 ms", "done · 1 ms". */
export function summaryText(r: Summary, timer: boolean): string {
  const parts: string[] = [];
  if (r.columns.length > 0) parts.push(plural(r.rowCount, 'row'));
  else if (r.rowsAffected > 0 || r.lastInsertRowid !== null) {
    parts.push(`${plural(r.rowsAffected, 'row')} affected`);
    if (r.lastInsertRowid !== null) parts.push(`last insert rowid ${r.lastInsertRowid}`);
  } else parts.push('done');
  if (timer) {
    const t = formatDuration(r.durationMs);
    if (t) parts.push(t);
  }
  return parts.join(' · ');
}

/** The modes whose `.output` text is written row by row (table, box and markdown measure every row first). */
export type StreamedMode = 'csv' | 'json' | 'line';

export function isStreamedMode(mode: OutputMode): mode is StreamedMode {
  return mode === 'csv' || mode === 'json' || mode === 'line';
}

/**
 * resultText() for a result that arrives in parts: the same lines, written as the rows come,
 * so an export of any size holds one part at a time (`:sql store`'s `.output`).
 */
export class ResultTextStream {
  private count = 0;
  /** json: the last row's text, written once it is known whether another follows. */
  private held: string | null = null;
  private readonly nameWidth: number;

  constructor(
    private readonly columns: string[],
    private readonly mode: StreamedMode,
  ) {
    this.nameWidth = Math.max(1, ...columns.map((c) => cellWidth(c)));
  }

  *begin(): Generator<string> {
    if (this.mode === 'csv') yield csvLine(this.columns);
  }

  *rows(rows: readonly SqlValue[][]): Generator<string> {
    for (const row of rows) {
      const first = this.count++ === 0;
      if (this.mode === 'csv') yield csvLine(row.map((v) => valueText(v ?? null, '')));
      else if (this.mode === 'json') {
        if (this.held !== null) yield `${this.held},`;
        this.held = `${first ? '[' : ''}${jsonRow(this.columns, row)}`;
      } else {
        if (!first) yield '';
        for (let k = 0; k < this.columns.length; k++) yield `${padCells(this.columns[k]!, this.nameWidth, 'right')} = ${fileValue(row[k] ?? null)}`;
      }
    }
  }

  *end(): Generator<string> {
    if (this.mode !== 'json') return;
    yield this.held === null ? '[]' : `${this.held}]`;
  }
}
