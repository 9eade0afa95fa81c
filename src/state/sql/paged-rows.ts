import type { SqlValue } from '../../api/database/values';

export const PAGE_ROWS = 1000;
/** Pages held at once (the first is always kept: the grid's widths are measured on it). */
export const MAX_PAGES = 16;

/** Reads the rows [skip, skip + take) of the result again (through a cursor). */
export type PageReader = (skip: number, take: number) => Promise<SqlValue[][]>;

/**
 * The rows of a result too large to hold: a bounded cache of pages plus the count so far.
 * A row outside the cache reads as null and asks for its page, which is read again on demand
 * (one read at a time; the page wanted last goes next) and `onChange` tells the view.
 */
export class PagedRows {
  count = 0;
  done = false;
  /** The first pass was cancelled or failed: `count` is all it saw. */
  stopped = false;
  private readonly pages = new Map<number, SqlValue[][]>();
  private filling: SqlValue[][] = [];
  private loading: number | null = null;
  private next: number | null = null;

  constructor(
    private readonly read: PageReader,
    private readonly onChange: () => void,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly maxPages = MAX_PAGES,
  ) {}

  /** Rows of the first pass, in order. */
  append(rows: SqlValue[][]): void {
    for (const row of rows) {
      this.filling.push(row);
      this.count++;
      if (this.filling.length === PAGE_ROWS) this.flush();
    }
  }

  /** Rows of the first pass that are counted, not kept (read again when wanted). */
  skip(n: number): void {
    if (n <= 0) return;
    this.flush();
    this.count += n;
  }

  /** The first pass reached the end. */
  finish(): void {
    this.flush();
    this.done = true;
  }

  /** The rows of page 0 (all of them when the result fits in one page). */
  firstPage(): SqlValue[][] {
    return this.pages.get(0) ?? this.filling;
  }

  /** Rows in memory now. */
  rowsHeld(): number {
    let n = this.filling.length;
    for (const page of this.pages.values()) n += page.length;
    return n;
  }

  /**
   * Gives back every page (the entry scrolled away; the first pass is over): a row asked for
   * later is read again.
   */
  release(): void {
    if (!this.done) return;
    this.pages.clear();
  }

  pagesHeld(): number {
    return this.pages.size + (this.filling.length ? 1 : 0);
  }

  row(i: number): SqlValue[] | null {
    const p = Math.floor(i / PAGE_ROWS);
    const page = this.pages.get(p) ?? (p === Math.floor(this.count / PAGE_ROWS) && !this.done ? this.filling : undefined);
    if (page) {
      if (p !== 0 && this.pages.has(p)) {
        this.pages.delete(p);
        this.pages.set(p, page);
      }
      return page[i - p * PAGE_ROWS] ?? null;
    }
    if (i < this.count) this.want(p);
    return null;
  }

  private flush(): void {
    if (this.filling.length === 0) return;
    const p = Math.floor((this.count - 1) / PAGE_ROWS);
    this.keep(p, this.filling);
    this.filling = [];
  }

  private keep(p: number, rows: SqlValue[][]): void {
    this.pages.delete(p);
    this.pages.set(p, rows);
    for (const key of this.pages.keys()) {
      if (this.pages.size <= this.maxPages) break;
      if (key !== 0) this.pages.delete(key);
    }
  }

  private want(p: number): void {
    if (this.loading === p) return;
    if (this.loading !== null) {
      this.next = p;
      return;
    }
    this.loading = p;
    this.read(p * PAGE_ROWS, PAGE_ROWS)
      .then(
        (rows) => {
          this.keep(p, rows);
          this.onChange();
        },
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.loading = null;
        const n = this.next;
        this.next = null;
        if (n !== null && !this.pages.has(n)) this.want(n);
      });
  }
}

const placeholders = new WeakSet<SqlValue[]>();

/** A row of a paged result whose page is not in memory yet (its cells read `…`). */
export function isPendingRow(row: SqlValue[]): boolean {
  return placeholders.has(row);
}

/**
 * The paged rows as the array the screen's line sources index (rows[i], rows.length):
 * a row not in memory yet shows as `…` in each column until its page arrives.
 */
export function pagedRowsView(paged: PagedRows, columns: number): SqlValue[][] {
  const placeholder: SqlValue[] = Array.from({ length: columns }, () => '…');
  placeholders.add(placeholder);
  return new Proxy<SqlValue[][]>([], {
    get(target, prop, receiver) {
      if (prop === 'length') return paged.count;
      if (typeof prop === 'string' && /^\d+$/.test(prop)) {
        const i = Number(prop);
        return i < paged.count ? (paged.row(i) ?? placeholder) : undefined;
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}
