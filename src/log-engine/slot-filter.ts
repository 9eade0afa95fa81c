import type { RecordColumns } from './columns/record-columns';
import { compileFilter, filtersBeyondStatus, normalizeFilter, type LogFilter, type NormalizedFilter } from '../api/logs/query';

/**
 * compileFilter over records in a store, by slot: the status part is read from the status column,
 * and a record is built (from the columns) only when the filter has other parts to test.
 */
export function compileSlotFilter(filter: LogFilter | NormalizedFilter, cols: RecordColumns): (slot: number) => boolean {
  const f: NormalizedFilter = 'search' in filter && Array.isArray(filter.search) ? (filter as NormalizedFilter) : normalizeFilter(filter as LogFilter);
  const codes = new Set(f.status?.codes ?? []);
  const classes = new Set(f.status?.classes ?? []);
  const hasStatus = f.status !== null;
  const rest: NormalizedFilter = { ...f, status: null };
  const restTest = filtersBeyondStatus(rest) ? compileFilter(rest) : null;
  return (slot) => {
    if (hasStatus) {
      const s = cols.statusCode(slot);
      if (!codes.has(s) && !classes.has(Math.floor(s / 100))) return false;
    }
    return restTest === null || restTest(cols.entry(slot));
  };
}
