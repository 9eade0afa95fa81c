import type { StatsSnapshot } from '../../log-records/stats';
import { visible } from '../../log-records/rows';
import type { MarkRow, Prompt } from '../../state/logs/store';
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

/** Before each listed mark: the list's cursor, or room for it. */
const CURSOR = '› ';
const NO_CURSOR = '  ';

/** The first of `slots` rows shown so that the cursor is among them. */
function firstShown(cursor: number | null, slots: number): number {
  return cursor === null || cursor < slots ? 0 : cursor - slots + 1;
}

/**
 * The marks section: a title and a line per mark (tall), or one line (compact); at most `room`
 * lines. `cursor`: the list has the keys, its cursor on that mark (kept in view).
 */
export function marksLines(rows: readonly MarkRow[], room: number, tall: boolean, cursor: number | null = null): Part[][] {
  if (rows.length === 0 || room <= 0) return [];
  const title: Part = { text: `Marks ${rows.length}`, tone: 'accent' };
  const at = cursor === null ? null : Math.min(cursor, rows.length - 1);
  if (!tall || room < 2) {
    // compact: with the cursor, the line starts at its mark
    const from = at ?? 0;
    const shown = rows
      .slice(from)
      .flatMap((m, i) => [...(i ? [{ text: ' · ' }] : []), ...(at !== null && i === 0 ? [{ text: CURSOR, tone: 'accent' as const }] : []), ...markLine(m)]);
    return [[title, { text: ' ' }, ...(from > 0 ? [{ text: '… ', tone: 'muted' as const }] : []), ...shown]];
  }
  const hint = at === null ? " M/U next/prev · ' list · C clears" : ' ↑↓ choose · enter selects · esc table';
  const lines: Part[][] = [[title, { text: hint, tone: 'muted' }]];
  const slots = rows.length <= room - 1 ? rows.length : room - 2;
  const first = firstShown(at, slots);
  rows.slice(first, first + slots).forEach((m, i) => {
    lines.push([{ text: first + i === at ? CURSOR : NO_CURSOR, tone: 'accent' }, ...markLine(m)]);
  });
  const newer = rows.length - first - slots;
  if (slots < rows.length) lines.push([{ text: `  … ${first ? `${first} older${newer ? `, ${newer} newer` : ''}` : `${newer} more`}`, tone: 'muted' }]);
  return lines;
}

type StatsLines = (s: StatsSnapshot | null, width: number, height: number, tall: boolean) => Part[][];

/** The stats panel with the marks after the statistics (the marks get up to a third of a tall panel, one line below the stream). */
export function withMarks(
  stats: StatsLines,
  snapshot: StatsSnapshot | null,
  rows: readonly MarkRow[],
  cursor: number | null,
  width: number,
  height: number,
  tall: boolean,
): Part[][] {
  if (rows.length === 0) return stats(snapshot, width, height, tall);
  const room = tall ? Math.min(rows.length + 1, Math.max(2, Math.floor(height / 3))) : 1;
  const marks = marksLines(rows, room, tall, cursor);
  return [...stats(snapshot, width, Math.max(1, height - marks.length), tall).slice(0, Math.max(1, height - marks.length)), ...marks];
}

/** The export prompt's label: how many records, which format, what tab and ctrl-t switch. */
export function exportLabel(p: Extract<Prompt, { kind: 'export' }>): string {
  const n = p.markedOnly ? (p.marked ?? 0) : p.records;
  const which = p.markedOnly ? 'marked ' : '';
  const toggle = p.markedOnly ? 'ctrl-t: all shown' : p.marked ? `ctrl-t: the ${p.marked} marked only` : '';
  return `export ${n.toLocaleString('en-US')} ${which}record${n === 1 ? '' : 's'} (${p.format.toUpperCase()}, tab switches${toggle ? `; ${toggle}` : ''}) to: `;
}
