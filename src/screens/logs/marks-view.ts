import type { StatsSnapshot } from '../../log-records/stats';
import { visible } from '../../log-records/rows';
import type { MarkRow, Prompt } from '../../state/logs-store';
import { formatTime } from '../../text/time-format';
import type { Part } from './status-view';

/** Marks as the logs screen draws them: the glyph before a marked row, the stats panel's list, the export prompt. */

export const MARK_GLYPH = '◆';
/** Cells before each row while there are marks: the glyph and a space. */
export const MARK_GUTTER = 2;

const STATE_TEXT: Record<MarkRow['state'], string> = {
  held: '',
  hidden: ' (hidden by the local filter)',
  evicted: ' (evicted: the full buffer let it go)',
  'not held': ' (not in the buffer: outside the window or server filters)',
};

function markLine(m: MarkRow): Part[] {
  const gone = m.state !== 'held';
  return [
    { text: `${MARK_GLYPH} `, tone: gone ? 'muted' : 'accent' },
    { text: `${formatTime(m.time, 'clock')} ${m.status} ${visible(m.path)}${STATE_TEXT[m.state]}`, tone: gone ? 'muted' : undefined },
  ];
}

/** The marks section: a title and a line per mark (tall), or one line (compact); at most `room` lines. */
export function marksLines(rows: readonly MarkRow[], room: number, tall: boolean): Part[][] {
  if (rows.length === 0 || room <= 0) return [];
  const title: Part = { text: `Marks ${rows.length}`, tone: 'accent' };
  if (!tall || room < 2) {
    return [[title, { text: ' ' }, ...rows.flatMap((m, i) => [...(i ? [{ text: ' · ' }] : []), ...markLine(m)])]];
  }
  const lines: Part[][] = [[title, { text: ' M next · U previous · C clears', tone: 'muted' }]];
  const shown = rows.length <= room - 1 ? rows : rows.slice(0, room - 2);
  for (const m of shown) lines.push([{ text: '  ' }, ...markLine(m)]);
  if (shown.length < rows.length) lines.push([{ text: `  … ${rows.length - shown.length} more`, tone: 'muted' }]);
  return lines;
}

type StatsLines = (s: StatsSnapshot | null, width: number, height: number, tall: boolean) => Part[][];

/** The stats panel with the marks after the statistics (the marks get up to a third of a tall panel, one line below the stream). */
export function withMarks(stats: StatsLines, snapshot: StatsSnapshot | null, rows: readonly MarkRow[], width: number, height: number, tall: boolean): Part[][] {
  if (rows.length === 0) return stats(snapshot, width, height, tall);
  const room = tall ? Math.min(rows.length + 1, Math.max(2, Math.floor(height / 3))) : 1;
  const marks = marksLines(rows, room, tall);
  return [...stats(snapshot, width, Math.max(1, height - marks.length), tall).slice(0, Math.max(1, height - marks.length)), ...marks];
}

/** The export prompt's label: how many records, which format, what tab and ctrl-t switch. */
export function exportLabel(p: Extract<Prompt, { kind: 'export' }>): string {
  const n = p.markedOnly ? p.marked ?? 0 : p.records;
  const which = p.markedOnly ? 'marked ' : '';
  const toggle = p.markedOnly ? 'ctrl-t: all shown' : p.marked ? `ctrl-t: the ${p.marked} marked only` : '';
  return `export ${n.toLocaleString('en-US')} ${which}record${n === 1 ? '' : 's'} (${p.format.toUpperCase()}, tab switches${toggle ? `; ${toggle}` : ''}) to: `;
}
