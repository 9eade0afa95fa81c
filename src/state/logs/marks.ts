import { entryKey, type LogEntry } from '../../api/logs/entry';
import { locateMark, MarkSet, type Mark } from '../../log-records/marks';
import { formatTime } from '../../text/time-format';
import type { ExportSnapshot, LogsViewModel } from './view-model';

/** A mark as the stats panel lists it: whether its record is still there to jump to. */
export interface MarkRow extends Mark {
  state: 'held' | 'hidden' | 'evicted' | 'not held';
}

export type MarkTarget = { pos: number; mark: Mark; wrapped: boolean } | { message: string };

/**
 * The logs screen's marks over its view model: marking the selected record, finding marks again
 * in the view (which changes with filters, new records and evictions), the rows the stats panel
 * lists, and the records an export of the marks writes.
 */
export class LogMarks {
  readonly set = new MarkSet();

  constructor(private readonly model: LogsViewModel) {}

  get size(): number {
    return this.set.size;
  }

  /** The view position of a mark's record; or why it cannot be shown. */
  locate(mark: Mark): number | Exclude<MarkRow['state'], 'held'> {
    const buffer = this.model.buffer;
    const b = locateMark(buffer, mark);
    if (b < 0) return mark.time <= buffer.evictedUpTo ? 'evicted' : 'not held';
    const seq = buffer.seqAt(b);
    const pos = this.model.positionOf(seq, mark.time);
    return this.model.seqAt(pos) === seq ? pos : 'hidden';
  }

  rows(): MarkRow[] {
    return this.set.list().map((m) => {
      const at = this.locate(m);
      return { ...m, state: typeof at === 'number' ? 'held' : at };
    });
  }

  /** The next (dir 1) or previous (-1) mark the view can show, going around at the ends. */
  target(selectedPos: number, dir: 1 | -1): MarkTarget {
    if (this.set.size === 0) return { message: 'no marks: m marks the selected record' };
    const entry = this.model.entryAt(selectedPos);
    const time = this.model.timeAt(selectedPos);
    const key = entry ? entryKey(entry) : null;
    let skipped = 0;
    for (const { mark, wrapped } of this.set.around(Number.isNaN(time) ? Number.POSITIVE_INFINITY : time, key, dir)) {
      const at = this.locate(mark);
      if (typeof at === 'number') return { pos: at, mark, wrapped };
      skipped++;
    }
    const self = entry !== null && this.set.has(entry) ? 1 : 0;
    if (skipped === 0) return { message: 'this is the only mark' };
    return {
      message: `no other mark to go to: ${skipped} mark${skipped === 1 ? '' : 's'} ${self ? 'besides this one ' : ''}are evicted or hidden by the filters (i lists them)`,
    };
  }

  /** The marked records the store still holds, oldest first, built as they are written. */
  exportRecords(): ExportSnapshot {
    const buffer = this.model.buffer;
    const marks = [...this.set.list()];
    const snapshot: ExportSnapshot = { count: marks.length, missed: 0, records };
    function* records(): Generator<LogEntry> {
      snapshot.missed = 0;
      for (const m of marks) {
        const b = locateMark(buffer, m);
        if (b < 0) {
          snapshot.missed++;
          continue;
        }
        yield buffer.columns.entry(buffer.slotAt(b));
      }
    }
    return snapshot;
  }
}

/** Where a time jump lands: the first shown record at or after `t`; outside what is shown, the nearest end. */
export function timeTarget(model: LogsViewModel, t: number): { pos: number } | { nearest: number; message: string } | { message: string } {
  const total = model.total;
  if (total === 0) return { message: 'no records to jump in yet' };
  const first = model.realRow(0, 1);
  const last = model.realRow(total - 1, -1);
  const oldest = model.timeAt(first);
  const newest = model.timeAt(last);
  const range = `newest ${formatTime(newest, 'dateTime')}`;
  if (t < oldest)
    return {
      nearest: first,
      message: `${formatTime(t, 'dateTime')} is before the oldest record held, ${formatTime(oldest, 'dateTime')} (${range}): enter again goes to it`,
    };
  if (t > newest)
    return {
      nearest: last,
      message: `${formatTime(t, 'dateTime')} is after the newest record held, ${formatTime(newest, 'dateTime')}: enter again goes to it`,
    };
  return { pos: model.realRow(model.positionOf(0, t), 1) };
}
