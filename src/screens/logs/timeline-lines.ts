import type { Tone } from '../../components/theme';
import { CLASS_SLOTS, formatBucket, STATUS_CLASSES } from '../../log-records/timeline';
import { bucketOf, type TimelineView } from '../../log-records/timeline-view';
import type { TimelineState } from '../../state/logs/timeline';
import type { Part } from './status-view';
import { formatTime } from '../../text/time-format';

/**
 * The timeline panel as lines of parts (pure, tested without a terminal): a header (bucket size,
 * scale, legend, who has the keys), stacked bars by status class, the time axis with the
 * cursor, its labels, and the cursor's bucket in numbers.
 */

export const BAR_ROWS = 4;
/** Lines the panel takes: header, bars, axis, labels, cursor line. */
export const TIMELINE_LINES = BAR_ROWS + 4;

/** 2xx, 3xx, 4xx, 5xx, other: the theme's tones, and a character each for terminals without colour. */
const TONES: readonly Tone[] = ['ok', 'info', 'warn', 'error', 'muted'];
const PLAIN = ['#', '=', '+', 'X', '.'];
const BLOCK = '█';
const FIVE_XX = 3;
/** Bottom to top in a bar: errors on top, where they show. */
const STACK = [4, 0, 1, 2, 3];

const n = (x: number) => x.toLocaleString('en-US');
const clock = (t: number, seconds: boolean) => formatTime(t, seconds ? 'clock' : 'minute');

/**
 * The cells of one bar `height` cells tall, by class (CLASS_SLOTS counts), bottom first: the
 * largest remainders get the rounding, and 5xx with requests keep at least one cell (a few
 * errors among thousands of 2xx still show; the other classes are drawn to scale).
 */
export function barCells(counts: ArrayLike<number>, at: number, height: number): number[] {
  const cells = new Array<number>(CLASS_SLOTS).fill(0);
  let total = 0;
  for (let k = 0; k < CLASS_SLOTS; k++) total += counts[at + k]!;
  if (total === 0 || height <= 0) return cells;
  const exact: number[] = [];
  let used = 0;
  for (let k = 0; k < CLASS_SLOTS; k++) {
    exact[k] = (counts[at + k]! / total) * height;
    cells[k] = Math.floor(exact[k]!);
    used += cells[k]!;
  }
  const byRemainder = [...cells.keys()].sort((a, b) => exact[b]! - cells[b]! - (exact[a]! - cells[a]!) || b - a);
  for (let i = 0; used < height; i = (i + 1) % CLASS_SLOTS) {
    if (counts[at + byRemainder[i]!]! > 0) {
      cells[byRemainder[i]!]!++;
      used++;
    }
  }
  if (counts[at + FIVE_XX]! > 0 && cells[FIVE_XX] === 0) {
    let donor = -1;
    for (let d = 0; d < CLASS_SLOTS; d++) if (cells[d]! > 1 && (donor < 0 || cells[d]! > cells[donor]!)) donor = d;
    if (donor < 0) for (let d = 0; d < CLASS_SLOTS; d++) if (cells[d]! > 0 && (donor < 0 || cells[d]! > cells[donor]!)) donor = d;
    cells[donor]!--;
    cells[FIVE_XX] = 1;
  }
  return cells;
}

/** A bar's height in cells for a total: 0 only for an empty bucket. */
export function barHeight(total: number, max: number, rows: number): number {
  if (total <= 0 || max <= 0) return 0;
  return Math.max(1, Math.round((total / max) * rows));
}

/** Joins characters of the same tone into one part. */
function pushCell(parts: Part[], text: string, tone: Tone | undefined): void {
  const last = parts[parts.length - 1];
  if (last && last.tone === tone) last.text += text;
  else parts.push({ text, tone });
}

function barLines(v: TimelineView, color: boolean): Part[][] {
  const columns: number[][] = [];
  for (let b = 0; b < v.n; b++) {
    const o = b * CLASS_SLOTS;
    let total = 0;
    for (let k = 0; k < CLASS_SLOTS; k++) total += v.counts[o + k]!;
    const cells = barCells(v.counts, o, barHeight(total, v.max, BAR_ROWS));
    const column: number[] = [];
    for (const k of STACK) for (let c = 0; c < cells[k]!; c++) column.push(k);
    columns.push(column);
  }
  const lines: Part[][] = [];
  for (let row = BAR_ROWS - 1; row >= 0; row--) {
    const parts: Part[] = [];
    for (let b = 0; b < v.n; b++) {
      const k = columns[b]![row];
      if (k === undefined) pushCell(parts, b === v.cursor ? '│' : ' ', b === v.cursor ? 'accent' : undefined);
      else pushCell(parts, color ? BLOCK : PLAIN[k]!, TONES[k]);
    }
    lines.push(parts);
  }
  return lines;
}

const LABEL_STEPS = [1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map((s) => s * 1000);

/** The axis (ticks and the cursor) and its labels: a label every "round" time that leaves room for it. */
function axisLines(v: TimelineView): Part[][] {
  const seconds = v.size < 60_000;
  const labelWidth = seconds ? 8 : 5;
  const every = LABEL_STEPS.find((s) => s >= v.size * (labelWidth + 2) && s % v.size === 0) ?? v.size * (labelWidth + 2);
  const axis: string[] = [];
  let labels = '';
  for (let b = 0; b < v.n; b++) {
    const t = v.first + b * v.size;
    const tick = t % every === 0;
    axis.push(b === v.cursor ? '▲' : tick ? '┬' : '─');
    if (tick && labels.length <= b) labels = labels.padEnd(b) + clock(t, seconds);
  }
  const a: Part[] = [];
  axis.forEach((c, b) => pushCell(a, c, b === v.cursor ? 'accent' : 'muted'));
  return [a, [{ text: labels.slice(0, Math.max(v.n, labels.length)), tone: 'muted' }]];
}

export interface TimelineLinesInput {
  timeline: TimelineState;
  /** Colours on (else distinct characters per class). */
  color: boolean;
  /** The local pattern, when the counts are its matches. */
  pattern: string | null;
}

/** The panel's TIMELINE_LINES lines. */
export function timelineLines({ timeline: t, color, pattern }: TimelineLinesInput): Part[][] {
  const focused = t.focus === 'timeline';
  const v = t.view;
  const head: Part[] = [{ text: focused ? '▶ timeline' : '  timeline', tone: focused ? 'accent' : 'muted' }];
  if (v) {
    head.push({ text: ` · ${formatBucket(v.size)} buckets${v.auto ? ' (auto)' : ''} · max ${n(v.max)}`, tone: 'muted' });
    if (t.filtered && pattern !== null) head.push({ text: ` · /${pattern}/ only`, tone: 'muted' });
    head.push({ text: ' · ', tone: 'muted' });
    STATUS_CLASSES.forEach((name, k) => {
      head.push({ text: `${color ? BLOCK : PLAIN[k]!}`, tone: TONES[k] });
      head.push({ text: `${name} `, tone: 'muted' });
    });
  }
  head.push({ text: focused ? '· ←→ cursor · +- zoom · enter jump · tab/esc table' : '· tab: keys to the timeline', tone: focused ? 'accent' : 'muted' });
  if (!v) {
    const why = t.counting ? `counting the matches of /${pattern ?? ''}/…` : 'no records yet';
    const lines: Part[][] = [head, [{ text: `  ${why}`, tone: 'muted' }]];
    while (lines.length < TIMELINE_LINES) lines.push([]);
    return lines;
  }
  const b = bucketOf(v, v.cursor);
  const seconds = v.size < 60_000;
  const cursor: Part[] = [
    { text: `▲ ${clock(b.start, seconds)}–${clock(b.end, seconds)}${v.cursorLive ? ' (newest)' : ''} · `, tone: 'accent' },
    { text: `${n(b.total)} request${b.total === 1 ? '' : 's'}` },
  ];
  STATUS_CLASSES.forEach((name, k) =>
    cursor.push({ text: ` · ${name} `, tone: 'muted' }, { text: n(b.classes[k]!), tone: b.classes[k]! > 0 ? TONES[k] : 'muted' }),
  );
  if (v.spanned > v.n) cursor.push({ text: ` · buckets ${n(v.offset + 1)}–${n(v.offset + v.n)} of ${n(v.spanned)}`, tone: 'muted' });
  return [head, ...barLines(v, color), ...axisLines(v), cursor];
}
