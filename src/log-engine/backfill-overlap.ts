/**
 * How many records consecutive backfill pages share. Pages are read newest first by offset from a
 * pinned window, several in flight; records still arriving late (the ingestion delay) land at the
 * top of the window and push older ones to higher offsets. A page the server answered before the
 * page above it then starts up to `shift` records past where it should. With an overlap of
 * `shift + 1` records or more it still holds the last record of the page above, so it can be taken
 * as it is; otherwise it must be read again, which costs a request of the zone's budget.
 *
 * The overlap starts at one record, grows fast when a page had to be read again or held the record
 * with little room to spare (so the budget goes to new records), and shrinks slowly while pages
 * hold it with room to spare (so fewer records are read twice once late arrivals stop).
 */
export class BackfillOverlap {
  private value = 1;

  constructor(private readonly max: number) {}

  /** Records the next page shares with the one above it (1..max). */
  get records(): number {
    return this.value;
  }

  /** A page did not hold the last record of the page above: it is read again. */
  missed(): void {
    this.value = Math.min(this.max, Math.max(256, this.value * 2));
  }

  /**
   * A page held the last record of the page above at `index` with an overlap of `asked`: the
   * records before it were read twice, the ones after it are new; index asked - 1 means no shift.
   */
  held(index: number, asked: number): void {
    const shift = asked - 1 - index;
    // twice the shift seen: a page shifted as much again still fits
    const want = Math.min(this.max, Math.max(1, 2 * shift + 1));
    // close to a miss: grow before the next page misses (each costs a request)
    if (want > this.value) this.value = want;
    // room to spare: shrink slowly
    else if (want < this.value) this.value = Math.max(want, Math.floor(this.value * 0.9));
  }
}
