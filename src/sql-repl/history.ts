/**
 * The REPL's history as a list, oldest first, and the two ways to walk it: up/down (an index,
 * `null` meaning the draft being typed) and Ctrl-R reverse search.
 */

export const HISTORY_MAX = 1000;

/** Adds an entry unless it is blank or the same as the last one; keeps at most `max`. Returns the new list. */
export function addHistory(entries: readonly string[], entry: string, max = HISTORY_MAX): string[] {
  const text = entry.trim();
  if (text === '' || entries[entries.length - 1] === text) return entries as string[];
  const next = [...entries, text];
  return next.length > max ? next.slice(next.length - max) : next;
}

/**
 * One step through the history: `dir` -1 is older (up), 1 newer (down). `index` null is the
 * draft. Returns the new index (null = back at the draft), or undefined when there is nowhere to go.
 */
export function historyStep(entries: readonly string[], index: number | null, dir: -1 | 1): number | null | undefined {
  if (dir < 0) {
    if (entries.length === 0) return undefined;
    if (index === null) return entries.length - 1;
    return index > 0 ? index - 1 : undefined;
  }
  if (index === null) return undefined;
  return index < entries.length - 1 ? index + 1 : null;
}

/**
 * Reverse search: the newest entry at or before `from` that contains `query` (case-insensitive).
 * Returns its index, or -1. An empty query matches nothing.
 */
export function searchBackward(entries: readonly string[], query: string, from = entries.length - 1): number {
  if (query === '') return -1;
  const q = query.toLowerCase();
  for (let i = Math.min(from, entries.length - 1); i >= 0; i--) {
    if (entries[i]!.toLowerCase().includes(q)) return i;
  }
  return -1;
}

/** The state of a Ctrl-R search: what is typed, the entry it found (or -1), and whether the last step failed. */
export interface HistorySearch {
  query: string;
  match: number;
  failed: boolean;
}

/** A new search, or the query grown by one key: finds the newest match from the current one. */
export function searchType(entries: readonly string[], search: HistorySearch | null, query: string): HistorySearch {
  const from = search && search.match >= 0 ? search.match : entries.length - 1;
  const match = searchBackward(entries, query, from);
  if (match >= 0) return { query, match, failed: false };
  // a shorter query may match a newer entry than the current one
  const anywhere = searchBackward(entries, query);
  return anywhere >= 0 ? { query, match: anywhere, failed: false } : { query, match: search?.match ?? -1, failed: query !== '' };
}

/** Ctrl-R again: the next older match of the same query. */
export function searchOlder(entries: readonly string[], search: HistorySearch): HistorySearch {
  if (search.match <= 0) return { ...search, failed: search.query !== '' };
  const match = searchBackward(entries, search.query, search.match - 1);
  return match >= 0 ? { ...search, match, failed: false } : { ...search, failed: true };
}
