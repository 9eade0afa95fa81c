import type { PlatformConnection } from '../runtime/connect';
import type { Column } from '../text/table-model';
import type { ScreenId } from '../renderers/screen-names';

/** Server-side search and paging (`--search`, `--page`, `--per-page`), for resources that have them. */
export interface ListQuery {
  search: string | null;
  /** null: every page. */
  page: number | null;
  perPage: number | null;
}

/** One thing `burrow get` can print. */
export interface Resource<T = unknown, R = T> {
  name: string;
  /** Name of the positional argument it needs (e.g. "ID"), if any. */
  arg?: string;
  summary: string;
  /** The console screen that lists it: its id and aliases (`:videos`, `:vl`) name this resource too. */
  screen?: ScreenId;
  /** Validates the argument before any request; throws UsageError with what is allowed. */
  parseArg?(arg: string): void;
  fetch(platform: PlatformConnection, arg: string | undefined, signal: AbortSignal, query: ListQuery): Promise<T[]>;
  /** Takes --search/--page/--per-page (else they are refused). */
  searchable?: boolean;
  /** json prints one object instead of an array. */
  single?: boolean;
  /** Rows for table/csv output; defaults to the records themselves. */
  rows?(records: T[]): R[];
  /** The resource's renderer columns (src/renderers), the same the screens show. */
  columns: Column<R>[];
}

export function defineResource<T, R = T>(r: Resource<T, R>): Resource<unknown, unknown> {
  return r as unknown as Resource<unknown, unknown>;
}
