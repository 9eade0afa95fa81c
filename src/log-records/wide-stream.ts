import type { LogEntry } from '../api/logs/entry';
import { cellText, GAP, type ColumnId, type LayoutColumn, type Segment, type StreamLayout, type TimeMode } from './rows';
import { wideLayout, type WideLayout } from '../text/wide-columns';

/**
 * Wide mode of the log stream (`w`): every column, each as wide as its longest text among the
 * records on screen (never narrower than it was a frame ago, so columns do not jump), and a
 * window of the screen's width scrolled sideways over the full line.
 */

const ALL: { id: ColumnId; header: string; align: 'left' | 'right' }[] = [
  { id: 'time', header: 'TIME', align: 'left' },
  { id: 'zone', header: 'ZONE', align: 'left' },
  { id: 'status', header: 'ST', align: 'left' },
  { id: 'cache', header: 'CACHE', align: 'left' },
  { id: 'path', header: 'PATH', align: 'left' },
  { id: 'bytes', header: 'BYTES', align: 'right' },
  { id: 'country', header: 'CC', align: 'left' },
  { id: 'edge', header: 'EDGE', align: 'left' },
  { id: 'ip', header: 'IP', align: 'left' },
  { id: 'ua', header: 'USER AGENT', align: 'left' },
];

/** Code points, as the stream's cells are cut and padded (rows.ts). */
const len = (s: string) => [...s].length;

export interface WideStream {
  /** A layout whose columns fit every shown cell whole (rowSegments then cuts nothing). */
  layout: StreamLayout;
  wide: WideLayout;
}

/** `zones`: several zones are followed, so the ZONE column is shown (as in the normal layout). */
export function wideStream(entries: readonly LogEntry[], timeMode: TimeMode, before: WideStream | null, zones = false): WideStream {
  const cols = ALL.filter((c) => (c.id !== 'time' || timeMode !== 'off') && (c.id !== 'zone' || zones));
  const columns: LayoutColumn[] = cols.map((c) => {
    const kept = before?.layout.timeMode === timeMode ? (before.layout.columns.find((x) => x.id === c.id)?.width ?? 0) : 0;
    let width = Math.max(len(c.header), kept);
    for (const e of entries) width = Math.max(width, len(cellText(e, c.id, timeMode)));
    return { id: c.id, header: c.header, width, align: c.align };
  });
  if (
    before &&
    before.layout.timeMode === timeMode &&
    before.layout.columns.length === columns.length &&
    columns.every((c, i) => c.width === before.layout.columns[i]?.width)
  )
    return before;
  const wide = wideLayout(
    columns.map((c) => c.width),
    GAP,
  );
  return { layout: { width: wide.total, columns, timeMode, zoneOrder: [] }, wide };
}

/** The segments inside the window [offset, offset + width) of a full line, cut at its edges. */
export function sliceSegments(segments: readonly Segment[], offset: number, width: number): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  const end = offset + width;
  for (const s of segments) {
    const chars = [...s.text];
    const from = Math.max(0, offset - at);
    const to = Math.min(chars.length, end - at);
    if (to > from) out.push({ ...s, text: chars.slice(from, to).join('') });
    at += chars.length;
    if (at >= end) break;
  }
  return out;
}
