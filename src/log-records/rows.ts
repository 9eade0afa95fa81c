import { parseTimestamp, type LogEntry } from '../api/logs/entry';
import { LOG_FIELDS } from '../log-fields/fields';
import { terminalSafe } from '../text/terminal-safe';
import { matchRanges, searchFields } from './filter';
import { lineOf, mayCrossFields, partStarts } from './record-line';
import { displayZone, formatTime, isoWidth, offsetText } from '../text/time-format';
import { zoneColour, type ZoneColour } from './zone-colours';

/**
 * How one log record looks in the stream: which columns fit the width, each cell's text, the
 * status coloured by class, matches of the local pattern marked, and wrapping. Pure: a record
 * in, segments out. Control characters (a hostile user agent or URL) are shown escaped, never
 * sent to the terminal.
 */

export type TimeMode = 'short' | 'full' | 'off';
export type SegmentTone = 'ok' | 'info' | 'warn' | 'error' | 'muted' | 'accent';

export interface Segment {
  text: string;
  tone?: SegmentTone;
  /** A match of the local pattern. */
  mark?: boolean;
  /** A colour by name instead of a tone: the zone's in a merged stream (zone-colours.ts). */
  colour?: ZoneColour;
}

export type ColumnId = 'time' | 'zone' | 'status' | 'cache' | 'path' | 'bytes' | 'country' | 'edge' | 'ip' | 'ua';

export interface LayoutColumn {
  id: ColumnId;
  header: string;
  width: number;
  align: 'left' | 'right';
}

export interface StreamLayout {
  width: number;
  columns: LayoutColumn[];
  timeMode: TimeMode;
  /** The zones merged, in the order their colours are given (empty: one zone). */
  zoneOrder: readonly number[];
}

export const GAP = 1;

/** Control characters as \xNN (bidi controls as \uNNNN), so nothing from a record can drive the terminal. */
export const visible = terminalSafe;

/** 512B, 1.2K, 34.5M, 2.0G (binary units, as CDN dashboards show them). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '?';
  if (n < 1024) return `${n}B`;
  const units = ['K', 'M', 'G', 'T', 'P'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)}${units[u]}`;
}

/** Tone of a status code by class: 2xx ok, 3xx info, 4xx warn, 5xx error, others muted. */
export function statusTone(code: number): SegmentTone {
  const c = Math.floor(code / 100);
  return c === 2 ? 'ok' : c === 3 ? 'info' : c === 4 ? 'warn' : c === 5 ? 'error' : 'muted';
}

/** The time column in the display zone (local, or UTC with --utc): 14:05:30.123, or the full ISO time with its offset. */
export function timeText(e: LogEntry, mode: TimeMode): string {
  if (mode === 'off') return '';
  const t = parseTimestamp(e.timestamp);
  if (Number.isNaN(t)) return e.timestamp;
  return formatTime(t, mode === 'full' ? 'iso' : 'clockMs');
}

/** The path column: host + path when the record has a path, else the URL. */
export function pathText(e: LogEntry): string {
  if (e.path !== null) return e.path;
  return e.url ?? '-';
}

export function cellText(e: LogEntry, id: ColumnId, timeMode: TimeMode): string {
  switch (id) {
    case 'time':
      return timeText(e, timeMode);
    case 'zone':
      return String(e.pullZoneId);
    case 'status':
      return String(e.statusCode);
    case 'cache':
      return e.cacheStatus ?? '';
    case 'path':
      return visible(pathText(e));
    case 'bytes':
      return formatBytes(e.bytesSent);
    case 'country':
      return e.countryCode ?? '--';
    case 'edge':
      return visible(e.edgeLocation ?? '-');
    case 'ip':
      return visible(e.remoteIp ?? '-');
    case 'ua':
      return visible(e.userAgent ?? '-');
  }
}

const HEADERS: Record<ColumnId, string> = {
  time: 'TIME',
  zone: 'ZONE',
  status: 'ST',
  cache: 'CACHE',
  path: 'PATH',
  bytes: 'BYTES',
  country: 'CC',
  edge: 'EDGE',
  ip: 'IP',
  ua: 'USER AGENT',
};

/**
 * Columns for a width. Below 100 cells the user agent is left out (enter shows it; wrap mode
 * shows everything); the path takes what is left, the user agent shares it when shown. With
 * several zones a ZONE column (the pull zone id) follows the time.
 */
export function streamLayout(width: number, timeMode: TimeMode, zones: boolean | readonly number[] = false): StreamLayout {
  const zoneOrder = Array.isArray(zones) && zones.length > 1 ? zones : [];
  const wide = width >= 120;
  const fixed: LayoutColumn[] = [];
  const col = (id: ColumnId, w: number, align: 'left' | 'right' = 'left') => fixed.push({ id, header: HEADERS[id], width: w, align });
  if (timeMode !== 'off') col('time', timeMode === 'full' ? isoWidth() : 12);
  if (zones === true || zoneOrder.length > 0) col('zone', 7);
  col('status', 3);
  col('cache', wide ? 11 : 8);
  const pathAt = fixed.length;
  col('bytes', 6, 'right');
  col('country', 2);
  col('edge', 4);
  col('ip', wide ? 22 : 15);
  const showUa = width >= 100;
  const used = fixed.reduce((n, c) => n + c.width, 0) + GAP * (fixed.length + (showUa ? 1 : 0));
  const rest = Math.max(8, width - used);
  const pathWidth = showUa ? Math.max(8, Math.floor(rest * 0.55)) : rest;
  const columns = [...fixed];
  columns.splice(pathAt, 0, { id: 'path', header: HEADERS.path, width: pathWidth, align: 'left' });
  if (showUa) columns.push({ id: 'ua', header: HEADERS.ua, width: Math.max(4, rest - pathWidth), align: 'left' });
  return { width, columns, timeMode, zoneOrder };
}

function fitCell(text: string, width: number, align: 'left' | 'right'): string {
  const chars = [...text];
  let out = chars.length > width ? (width <= 1 ? '…' : chars.slice(0, width - 1).join('') + '…') : text;
  const pad = ' '.repeat(Math.max(0, width - [...out].length));
  out = align === 'right' ? pad + out : out + pad;
  return out;
}

export function headerText(layout: StreamLayout): string {
  return layout.columns.map((c) => fitCell(c.header, c.width, c.align)).join(' '.repeat(GAP));
}

/**
 * A match of the whole line that spans fields (`api/cart.*DE`), as ranges in each cell's text:
 * the part of the match that falls in the field the cell shows. Null when the pattern cannot
 * cross fields or the line has no such match.
 */
function lineMarks(e: LogEntry, all: RegExp): Partial<Record<ColumnId, [number, number][]>> | null {
  if (!mayCrossFields(all.source)) return null;
  const parts = searchFields(e);
  const line = lineOf(parts);
  const ranges = matchRanges(all, line);
  if (!ranges.length) return null;
  const starts = partStarts(parts);
  // the cells that show a part of the line, and where the cell's text starts in that part
  const shownIn: [ColumnId, number, number][] = [
    ['status', 0, 0],
    ['cache', 1, 0],
    ['country', 3, 0],
    ['edge', 4, 0],
    ['ip', 5, 0],
    ['ua', 6, 0],
  ];
  if (e.host !== null && e.path !== null) shownIn.push(['path', 2, e.host.length]);
  else if (e.path === null) shownIn.push(['path', 2, 0]);
  const out: Partial<Record<ColumnId, [number, number][]>> = {};
  for (const [id, part, skip] of shownIn) {
    const text = parts[part];
    if (starts[part]! < 0 || text === null || text === undefined || visible(text) !== text) continue;
    const from = starts[part]! + skip;
    const to = starts[part]! + text.length;
    for (const [s, end] of ranges) {
      const a = Math.max(s, from);
      const b = Math.min(end, to);
      if (a < b) (out[id] ??= []).push([a - from, b - from]);
    }
  }
  return out;
}

/** A cell's text split at the pattern's matches (only within what is shown), with the line's matches in it (`extra`). */
function markSegments(
  text: string,
  shownLength: number,
  all: RegExp | null,
  tone: SegmentTone | undefined,
  extra: readonly [number, number][] = [],
): Segment[] {
  if (!all) return [{ text, tone }];
  const ranges = mergeRanges([
    ...matchRanges(all, text.slice(0, shownLength)),
    ...extra.map(([s, e]): [number, number] => [s, Math.min(e, shownLength)]).filter(([s, e]) => s < e),
  ]);
  if (!ranges.length) return [{ text, tone }];
  const out: Segment[] = [];
  let at = 0;
  for (const [s, e] of ranges) {
    if (s > at) out.push({ text: text.slice(at, s), tone });
    out.push({ text: text.slice(s, e), tone, mark: true });
    at = e;
  }
  if (at < text.length) out.push({ text: text.slice(at), tone });
  return out;
}

/** Sorted ranges with the overlapping ones joined. */
function mergeRanges(ranges: [number, number][]): [number, number][] {
  if (ranges.length < 2) return ranges;
  ranges.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [ranges[0]!];
  for (const r of ranges.slice(1)) {
    const last = out[out.length - 1]!;
    if (r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

export interface RowOptions {
  /** The local pattern's global regex: its matches are marked. */
  highlight?: RegExp | null;
  /** Wrap: cells are not cut (the caller splits the line with wrapSegments). */
  wrap?: boolean;
}

/** One record as segments for one line (or, with wrap, one long line to split). */
export function rowSegments(e: LogEntry, layout: StreamLayout, options: RowOptions = {}): Segment[] {
  const out: Segment[] = [];
  const all = options.highlight ?? null;
  const spans = all ? lineMarks(e, all) : null;
  const cols = layout.columns;
  for (let i = 0; i < cols.length; i++) {
    const c = cols[i]!;
    const raw = cellText(e, c.id, layout.timeMode);
    const tone: SegmentTone | undefined =
      c.id === 'status' ? statusTone(e.statusCode) : c.id === 'time' || c.id === 'bytes' ? 'muted' : c.id === 'zone' ? 'info' : undefined;
    let text: string;
    let shown: number;
    if (options.wrap) {
      // nothing is cut when wrapping: cells longer than their column push the rest right
      text = [...raw].length >= c.width ? raw : fitCell(raw, c.width, c.align);
      shown = text.length;
    } else {
      text = fitCell(raw, c.width, c.align);
      const cut = [...raw].length > c.width;
      shown = cut ? Math.max(0, text.length - 1) : text.length;
      if (c.align === 'right') shown = text.length;
    }
    const colour = c.id === 'zone' ? zoneColour(layout.zoneOrder, e.pullZoneId) : null;
    const segs = colour ? [{ text, tone, colour }] : c.id === 'bytes' ? [{ text, tone }] : markSegments(text, shown, all, tone, spans?.[c.id]);
    out.push(...segs);
    if (i < cols.length - 1) out.push({ text: ' '.repeat(GAP) });
  }
  if (options.wrap) {
    // trailing padding must not make a line of its own
    while (out.length && out[out.length - 1]!.text.trimEnd() === '') out.pop();
    const last = out[out.length - 1];
    if (last) out[out.length - 1] = { ...last, text: last.text.trimEnd() };
  }
  return out;
}

/** Splits segments into lines of at most `width` cells; continuation lines are indented. */
export function wrapSegments(segments: readonly Segment[], width: number, indent = 2): Segment[][] {
  const lines: Segment[][] = [];
  let line: Segment[] = [];
  let room = width;
  const w = Math.max(indent + 1, width);
  for (const seg of segments) {
    let chars = [...seg.text];
    while (chars.length > 0) {
      if (room === 0) {
        lines.push(line);
        line = [{ text: ' '.repeat(indent) }];
        room = w - indent;
      }
      const take = chars.slice(0, room);
      line.push({ ...seg, text: take.join('') });
      room -= take.length;
      chars = chars.slice(take.length);
    }
  }
  if (line.length) lines.push(line);
  return lines.length ? lines : [[{ text: '' }]];
}

/** Lines a record takes: 1, or with wrap the lines of its full text. */
export function rowHeight(e: LogEntry, layout: StreamLayout, wrap: boolean): number {
  if (!wrap) return 1;
  return wrapSegments(rowSegments(e, layout, { wrap: true }), layout.width).length;
}

/** Every field of a record for the detail view (the field table's order and labels): label and text (control characters escaped). */
export function detailFields(e: LogEntry, mask: (secret: string) => string, zoneName?: string | null): { label: string; value: string }[] {
  const v = (x: string | number | null) => (x === null ? '—' : visible(String(x)));
  // fields whose text is more than their value; the ASN's organization goes beside the ASN
  const special: Partial<Record<keyof LogEntry, () => string>> = {
    timestamp: () => timeDetail(e.timestamp),
    pullZoneId: () => `${v(e.pullZoneId)}${zoneName ? ` (${visible(zoneName)})` : ''}`,
    bytesSent: () => `${v(e.bytesSent)} (${formatBytes(e.bytesSent)})`,
    asn: () => (e.asn === null ? '—' : `${e.asn}${e.asnOrganization ? ` (${visible(e.asnOrganization)})` : ''}`),
    authorizationHeader: () => (e.authorizationHeader === null ? '—' : visible(mask(e.authorizationHeader))),
  };
  return LOG_FIELDS.filter((f) => f.name !== 'asnOrganization').map((f) => ({ label: f.label, value: special[f.name]?.() ?? v(e[f.name]) }));
}

/** The detail view's time: in the display zone, with the UTC time beside a local one. */
export function timeDetail(timestamp: string): string {
  const t = parseTimestamp(timestamp);
  if (Number.isNaN(t)) return visible(timestamp);
  const shown = formatTime(t, 'iso');
  return displayZone() === 'utc' || offsetText(t) === 'Z' ? shown : `${shown} (${formatTime(t, 'iso', 'utc')})`;
}
