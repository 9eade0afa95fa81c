import type { Entry } from '../../state/sql/store';
import { screenSource, type LineSource, type SegmentKind } from '../../sql-repl/output-modes';
import { columnsLayout } from '../../sql-repl/schema-sql';
import type { EditorState } from '../../sql-repl/editor';
import { terminalSafe, terminalSafeLines } from '../../text/terminal-safe';
import { cellWidth, takeCells } from '../../text/cells';
import { clampRow, revealRow, rowLayout, selectedLines } from './row-cursor';

/**
 * What the SQL screen draws, as plain data: the transcript (inputs, results, messages) cut to
 * the window that fits, a result browsed full screen, and the editor's lines. Pure functions:
 * the component only turns ViewLines into <Text>.
 */

export type ViewKind = SegmentKind | 'prompt' | 'ok' | 'info' | 'warn' | 'error' | 'muted' | 'cursor';

export interface ViewSegment {
  text: string;
  kind: ViewKind;
}

export type ViewLine = ViewSegment[];

const seg = (text: string, kind: ViewKind): ViewSegment => ({ text, kind });

/**
 * The line cut to `width` cells, as Ink's wrap="truncate" would cut it (the last cell becomes …),
 * but by display width: a wide character is never cut in half. A line that fits is returned as is.
 */
export function clipLine(line: ViewLine, width: number): ViewLine {
  let total = 0;
  for (const s of line) total += cellWidth(s.text);
  if (total <= width) return line;
  const room = Math.max(0, width - 1);
  const out: ViewLine = [];
  let used = 0;
  for (const s of line) {
    if (used >= room) break;
    const w = cellWidth(s.text);
    if (used + w <= room) {
      out.push(s);
      used += w;
      continue;
    }
    const cut = takeCells(s.text, room - used);
    out.push(seg(cut.text + ' '.repeat(room - used - cut.width), s.kind));
    used = room;
  }
  if (width > 0) out.push(seg('…', 'text'));
  return out;
}

/** Word-wraps text to `width` cells (long words are cut). */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  const w = Math.max(8, width);
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/(\s+)/)) {
      if (word === '') continue;
      if (cellWidth(line) + cellWidth(word) <= w) {
        line += word;
        continue;
      }
      if (line.trim() !== '') out.push(line.trimEnd());
      line = /^\s+$/.test(word) ? '' : word;
      while (cellWidth(line) > w) {
        const head = takeCells(line, w).text || [...line][0]!;
        out.push(head);
        line = line.slice(head.length);
      }
    }
    out.push(line.trimEnd());
  }
  return out;
}

/** "burrow-demo>" on the first line, "...>" aligned under it on the next ones. */
export function promptFor(prompt: string, row: number): string {
  if (row === 0) return `${prompt} `;
  return `${'...>'.padStart(prompt.length)} `;
}

const splitText = new WeakMap<readonly string[], string[]>();

/**
 * A text entry's lines as the screen has them: an item with line breaks inside (a CREATE TABLE
 * from .dump or .schema) is several screen lines, or counting it as one would push others out.
 */
export function screenTextLines(lines: readonly string[]): string[] {
  let out = splitText.get(lines);
  if (!out) {
    out = lines.some((l) => /[\r\n]/.test(l)) ? lines.flatMap((l) => l.split(/\r\n|\r|\n/)) : [...lines];
    splitText.set(lines, out);
  }
  return out;
}

const sources = new WeakMap<Entry, Map<number, LineSource>>();

/** A result's lines (cached per entry and column width: measuring the widths reads a sample of rows). */
export function resultSource(entry: Extract<Entry, { kind: 'result' }>, maxColumnWidth = 40): LineSource {
  let byWidth = sources.get(entry);
  if (!byWidth) {
    byWidth = new Map();
    sources.set(entry, byWidth);
  }
  let src = byWidth.get(maxColumnWidth);
  if (!src) {
    src = screenSource(entry.result, entry.mode, { maxColumnWidth });
    byWidth.set(maxColumnWidth, src);
  }
  return src;
}

function entryLinesUncached(entry: Entry, width: number, preview: number): ViewLine[] {
  switch (entry.kind) {
    case 'input':
      return entry.text.split('\n').map((l, i) => [seg(promptFor(entry.prompt, i), 'prompt'), seg(l, 'text')]);
    case 'message': {
      const kind: ViewKind = entry.level;
      return wrapText(terminalSafeLines(entry.text), width).map((l) => [seg(l, kind)]);
    }
    case 'text': {
      const lines = screenTextLines(entry.lines);
      const shown = lines.length > preview + 1 ? lines.slice(0, preview) : lines;
      const out = shown.map((l) => [seg(terminalSafe(l), 'text')]);
      if (shown.length < lines.length) out.push([seg(`… ${lines.length - shown.length} more lines: esc to browse them all`, 'muted')]);
      return out;
    }
    case 'words': {
      if (entry.words.length === 0) return [[seg(entry.empty, 'muted')]];
      const lines = columnsLayout(entry.words.map(terminalSafe), width);
      const shown = lines.length > preview + 1 ? lines.slice(0, preview) : lines;
      const out = shown.map((l) => [seg(terminalSafe(l), 'text')]);
      if (shown.length < lines.length) out.push([seg(`… ${lines.length - shown.length} more lines: esc to browse them all`, 'muted')]);
      return out;
    }
    case 'result': {
      const src = resultSource(entry);
      const rows = entry.result.rows.length;
      const limit = src.sticky + preview;
      const all = src.count <= limit + 1;
      const n = all ? src.count : limit;
      const out: ViewLine[] = [];
      for (let i = 0; i < n; i++) out.push(src.line(i, 0));
      const wide = out.some((l) => l.reduce((w, s) => w + cellWidth(s.text), 0) > width);
      const notes: string[] = [];
      if (!all) {
        const shownRows = entry.mode === 'line' ? Math.floor(n / (entry.result.columns.length + 1)) : Math.max(0, n - src.sticky);
        notes.push(`showing ${shownRows} of ${rows.toLocaleString('en-US')} rows: esc to browse them all`);
      } else if (wide) notes.push('wider than the screen: esc, then h/l to scroll sideways');
      out.push([seg(`(${entry.summary}${notes.length ? ` · ${notes.join(' · ')}` : ''})`, 'muted')]);
      return out;
    }
  }
}

const cache = new WeakMap<Entry, { key: string; lines: ViewLine[] }>();

/** An entry's lines at this width (cached: entries never change once made). */
export function entryLines(entry: Entry, width: number, preview: number): ViewLine[] {
  const key = `${width}:${preview}`;
  const hit = cache.get(entry);
  if (hit && hit.key === key) return hit.lines;
  const lines = entryLinesUncached(entry, width, preview);
  cache.set(entry, { key, lines });
  return lines;
}

/**
 * The transcript's last `height` lines, `scroll` lines up from the bottom. Only the entries that
 * reach into the window are laid out. Returns the lines (padded at the top when short) and the
 * scroll actually used (it cannot go above the first line).
 */
export function transcriptWindow(
  entries: readonly Entry[],
  width: number,
  height: number,
  scroll: number,
  preview: number,
): { lines: ViewLine[]; scroll: number } {
  const need = height + scroll;
  const collected: ViewLine[][] = [];
  let total = 0;
  let i = entries.length - 1;
  for (; i >= 0 && total < need; i--) {
    const e = entries[i]!;
    const lines = entryLines(e, width, preview);
    const withGap = e.kind === 'input' && i > 0 ? [[] as ViewLine, ...lines] : lines;
    collected.push(withGap);
    total += withGap.length;
  }
  const all = collected.reverse().flat();
  const maxScroll = i < 0 ? Math.max(0, all.length - height) : scroll;
  const used = Math.min(scroll, maxScroll);
  const end = all.length - used;
  const start = Math.max(0, end - height);
  return { lines: all.slice(start, end).map((l) => clipLine(l, width)), scroll: used };
}

/** The newest entry that can be browsed (a result set, text or a list), or the one asked for. */
export function browsedEntry(entries: readonly Entry[], id: number | null): Entry | null {
  if (id !== null) {
    const e = entries.find((x) => x.id === id);
    if (e) return e;
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const k = entries[i]!.kind;
    if (k === 'result' || k === 'text' || k === 'words') return entries[i]!;
  }
  return null;
}

const MADE_LIMIT = 2000;
/** Only the result browsed last keeps its lines: at most a few MB, however many results there are. */
let made: { src: LineSource; lines: Map<string, ViewLine> } | null = null;

/** Lines of a source already cut, by sideways position, width and index: going back costs nothing. */
function madeLines(src: LineSource): Map<string, ViewLine> {
  if (made?.src !== src) made = { src, lines: new Map() };
  return made.lines;
}

export interface BrowseView {
  /** Cut to the screen's width. */
  lines: ViewLine[];
  footer: string;
  /** Largest `top` that still fills the window. */
  maxTop: number;
  /** Sideways positions (columns of a grid). */
  hPositions: number;
  bodyHeight: number;
  /** The first body line shown (the `top` asked for, moved to keep the selected row in view). */
  top: number;
  /** Body lines under the sticky header. */
  room: number;
  /** The selected row of a result (clamped to its rows), or null: text and lists only scroll. */
  row: number | null;
  /** Indexes into `lines` of the selected row's lines. */
  selected: ReadonlySet<number>;
}

const NONE: ReadonlySet<number> = new Set();

/**
 * One entry full screen: the header stays while the rows scroll (`top` is the first row line
 * shown), `h` scrolls sideways by column. A result has a selected row (`row`), kept in view.
 * Only the lines in the window are made.
 */
export function browseWindow(entry: Entry | null, width: number, height: number, top: number, h: number, maxColumnWidth = 60, row = 0): BrowseView {
  const bodyHeight = Math.max(1, height - 1);
  if (!entry)
    return {
      lines: [[seg('no result yet: run a query first (i goes back to the input)', 'muted')]],
      footer: '',
      maxTop: 0,
      hPositions: 1,
      bodyHeight,
      top: 0,
      room: bodyHeight,
      row: null,
      selected: NONE,
    };
  let src: LineSource;
  if (entry.kind === 'result') src = resultSource(entry, maxColumnWidth);
  else {
    const lines =
      entry.kind === 'text'
        ? screenTextLines(entry.lines)
        : entry.kind === 'words'
          ? columnsLayout(entry.words.map(terminalSafe), width)
          : entryLines(entry, width, 1000).map((l) => l.map((s) => s.text).join(''));
    src = { count: lines.length, sticky: 0, hPositions: 1, line: (i) => [{ text: terminalSafe(lines[i]!), kind: 'text' }] };
  }
  const room = Math.max(1, bodyHeight - src.sticky);
  const bodyCount = Math.max(0, src.count - src.sticky);
  const maxTop = Math.max(0, bodyCount - room);
  const layout = rowLayout(entry);
  const selectedRow = layout && layout.rows > 0 ? clampRow(row, layout) : null;
  const t = layout && selectedRow !== null ? revealRow(selectedRow, top, layout, { room, maxTop }) : Math.max(0, Math.min(top, maxTop));
  const hp = src.hPositions;
  const hh = Math.max(0, Math.min(h, hp - 1));
  const lines: ViewLine[] = [];
  const made = madeLines(src);
  const add = (i: number) => {
    const key = `${hh}:${width}:${i}`;
    let line = made.get(key);
    if (!line) {
      line = clipLine(src.line(i, hh, width), width);
      if (made.size >= MADE_LIMIT) made.clear();
      made.set(key, line);
    }
    lines.push(line);
  };
  for (let i = 0; i < Math.min(src.sticky, src.count); i++) add(i);
  const sticky = lines.length;
  for (let i = 0; i < room && src.sticky + t + i < src.count; i++) add(src.sticky + t + i);
  const selected = layout && selectedRow !== null ? selectedLines(selectedRow, t, sticky, layout, lines.length - sticky) : NONE;
  let footer: string;
  if (entry.kind === 'result') {
    const rows = entry.result.rows.length;
    const perRow = entry.mode === 'line' ? entry.result.columns.length + 1 : 1;
    const first = rows === 0 ? 0 : Math.floor(t / perRow) + 1;
    const last = Math.min(rows, Math.ceil(Math.min(bodyCount, t + room) / perRow));
    const sideways =
      entry.mode === 'table' || entry.mode === 'box' || entry.mode === 'markdown'
        ? `column ${hh + 1} of ${entry.result.columns.length}`
        : hp > 1
          ? `shifted ${hh * 8} cells`
          : '';
    const on = selectedRow === null ? '' : ` · on row ${(selectedRow + 1).toLocaleString('en-US')}`;
    footer = `rows ${first}–${last} of ${rows.toLocaleString('en-US')}${on}${sideways ? ` · ${sideways}` : ''} · ${entry.summary}`;
  } else {
    footer = `lines ${Math.min(bodyCount, t + 1)}–${Math.min(bodyCount, t + room)} of ${bodyCount}`;
  }
  return { lines, footer, maxTop, hPositions: hp, bodyHeight, top: t, room, row: selectedRow, selected };
}

/**
 * Without colours the selected row cannot be shown in reverse video: its line starts with `>`
 * instead (over the grid's left border, or the line's first cell), so the columns stay put.
 */
export function markSelected(line: ViewLine): ViewLine {
  const first = line.findIndex((s) => s.text !== '');
  if (first < 0) return [seg('>', 'cursor')];
  const s = line[first]!;
  let head = takeCells(s.text, 1);
  if (head.text === '') head = takeCells(s.text, 2);
  const rest = s.text.slice(head.text.length);
  const pad = ' '.repeat(Math.max(0, head.width - 1));
  return [...line.slice(0, first), seg('>' + pad, 'cursor'), seg(rest, s.kind), ...line.slice(first + 1)];
}

/**
 * The editor's lines with the prompt, at most `maxLines` around the cursor; a line longer than
 * the screen scrolls so the cursor stays in view. The cursor is its own segment.
 */
export function editorLines(editor: EditorState, prompt: string, width: number, maxLines: number, showCursor: boolean): ViewLine[] {
  const rows = editor.text.split('\n');
  let offset = 0;
  let cursorRow = 0;
  let cursorCol = 0;
  for (let r = 0; r < rows.length; r++) {
    const len = rows[r]!.length;
    if (editor.cursor <= offset + len) {
      cursorRow = r;
      cursorCol = editor.cursor - offset;
      break;
    }
    offset += len + 1;
  }
  const count = Math.min(rows.length, Math.max(1, maxLines));
  const first = Math.max(0, Math.min(cursorRow - count + 1, rows.length - count));
  const out: ViewLine[] = [];
  for (let r = first; r < first + count; r++) {
    const p = promptFor(prompt, r);
    const room = Math.max(4, width - cellWidth(p) - 1);
    if (r !== cursorRow || !showCursor) {
      out.push([seg(p, 'prompt'), seg(takeCells(rows[r]!, room).text, 'text')]);
      continue;
    }
    // by cells: a wide character takes two, so fewer of them fit; the cursor stays in view
    const chars = [...rows[r]!];
    const w = chars.map((c) => cellWidth(c));
    const col = [...rows[r]!.slice(0, cursorCol)].length;
    const cursorWidth = Math.max(1, w[col] ?? 1);
    let start = 0;
    let before = 0;
    for (let i = 0; i < col; i++) before += w[i]!;
    while (start < col && before + cursorWidth > room) before -= w[start++]!;
    let end = start;
    let used = 0;
    while (end < chars.length && (end <= col || used + w[end]! <= room)) used += w[end++]!;
    const visible = chars.slice(start, end);
    const at = col - start;
    out.push([seg(p, 'prompt'), seg(visible.slice(0, at).join(''), 'text'), seg(visible[at] ?? ' ', 'cursor'), seg(visible.slice(at + 1).join(''), 'text')]);
  }
  return out;
}
