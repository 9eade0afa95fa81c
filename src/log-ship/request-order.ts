import type { BudgetState } from '../api/rate-limit';

/**
 * The share of its budget the first zone uses alone. Its (limit+k)th request waits for its kth
 * answer plus the window, so the spacing of its first answers is the spacing of its tail; a third:
 * a zone with up to 1.33 windows of pages gets a tail as short as the platform allows, and the
 * others wait at most that many of its pages (about a second with pages of 10,000 here).
 */
const ALONE_SHARE = 1 / 3;

/**
 * Which zones' page requests go first when several zones ship at once.
 *
 * The zone with the most pages left past what its budget has free goes first. A zone that needs
 * more requests than its budget allows in a window cannot end before its first answers plus the
 * window (its later requests wait for those slots to free); the sooner and the closer together
 * its first answers come (every zone's requests share the platform), the sooner its window turns
 * and the shorter its tail: its last requests follow the spacing of its first answers. So while
 * the first zone is pressing (reading pages, with a slot of its budget free) and has used less
 * than a third of its budget, it reads alone: its first answers come one platform page time
 * apart (it reads as far ahead of its inserts as the run holds batches, and while its inserts
 * make room the others still wait: their pages would be in front of its next one). Then, while it presses, the other zones read one batch at a time between them (the
 * platform has one of their requests beside the first zone's, never a queue in front of it).
 * When the first zone waits (for its window, for its own inserts, a retry) or is done, the others
 * read freely.
 *
 * Pages left are estimated from the density of what a zone read so far (unknown before its first
 * page: every zone starts at once), so the order is a guess that gets better as pages come; zones
 * within a page of the first are first too. A zone with less than two pages left is never first:
 * a follow at the live end holds nobody back. Nothing here changes how many requests a zone sends
 * or when its budget lets them go: it only holds back a zone the budget would let go.
 */
export class RequestOrder {
  private readonly zones = new Map<number, ZoneTurn>();
  private waiters: (() => void)[] = [];

  constructor(private readonly budget: { state(key: string): Pick<BudgetState, 'used' | 'limit'> }) {}

  private zone(zone: number): ZoneTurn {
    let z = this.zones.get(zone);
    if (!z) {
      z = { pagesLeft: Number.POSITIVE_INFINITY, active: false, reading: false, storing: false };
      this.zones.set(zone, z);
    }
    return z;
  }

  /** The zone's estimate of the pages left in what it reads now (Infinity before its first page, 0 when its stream is done). */
  estimate(zone: number, pagesLeft: number): void {
    const z = this.zone(zone);
    if (z.pagesLeft === pagesLeft) return;
    z.pagesLeft = pagesLeft;
    this.changed();
  }

  /**
   * The zone is reading a stream of pages (true), or waits for something else than the platform:
   * its inserts (ClickHouse), a retry, its next segment (false).
   */
  active(zone: number, active: boolean, storing = false): void {
    const z = this.zone(zone);
    if (z.active === active && z.storing === storing && (active || !z.reading)) return;
    z.active = active;
    z.storing = !active && storing;
    if (!active) z.reading = false;
    this.changed();
  }

  /** The zone reads ahead of its inserts up to `depth` batches, the first zone as far as the run allows (`max`): the others wait meanwhile. */
  depth(zone: number, depth: number, max: number): number {
    return this.first(zone) ? Math.max(depth, max) : depth;
  }

  /** The zone's batch taken at its turn is read (or failed). */
  read(zone: number): void {
    const z = this.zone(zone);
    if (!z.reading) return;
    z.reading = false;
    this.changed();
  }

  /** A request of the zone was just handed to the budget: a slot may have been taken. */
  sent(): void {
    this.changed();
  }

  /** Pages left past the requests its budget has free now. */
  private excess(zone: number, z: ZoneTurn): number {
    const s = this.budget.state(String(zone));
    return z.pagesLeft - (s.limit - s.used);
  }

  /** Whether the zone has (about) the most pages left past its budget's free slots, of all zones. */
  first(zone: number): boolean {
    const z = this.zone(zone);
    if (z.pagesLeft < 2) return false;
    const mine = this.excess(zone, z);
    for (const [other, o] of this.zones) if (other !== zone && o.pagesLeft >= 2 && this.excess(other, o) > mine + 1) return false;
    return true;
  }

  /** 0: not pressing; 1: pressing; 2: pressing with its window's first answers to come (what its tail's spacing follows). */
  private pressing(zone: number, z: ZoneTurn): number {
    if (!(z.active || z.storing) || !this.first(zone)) return 0;
    const s = this.budget.state(String(zone));
    if (s.used >= s.limit) return 0;
    const alone = s.used < Math.ceil(s.limit * ALONE_SHARE);
    // waiting for its own inserts, it holds the others back only while it reads alone: their
    // pages would be in front of its next one, and their inserts beside its own
    if (!z.active) return alone ? 2 : 0;
    return alone ? 2 : 1;
  }

  /** Whether the zone may read its next batch now. */
  may(zone: number): boolean {
    if (this.first(zone)) return true;
    let pressed = 0;
    let othersReading = false;
    for (const [other, z] of this.zones) {
      if (other === zone) continue;
      pressed = Math.max(pressed, this.pressing(other, z));
      if (z.reading && !this.first(other)) othersReading = true;
    }
    return pressed === 0 || (pressed === 1 && !othersReading);
  }

  /** Resolves when the zone may read its next batch (at once, usually), which it then reads; rejects when `signal` aborts. */
  async turn(zone: number, signal: AbortSignal): Promise<void> {
    while (!this.may(zone)) {
      if (signal.aborted) throw new Error('stopped');
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
    if (signal.aborted) throw new Error('stopped');
    // taken at once: a zone woken with it must not find the place free
    const z = this.zone(zone);
    z.active = true;
    z.reading = true;
    z.storing = false;
  }

  private changed(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }
}

interface ZoneTurn {
  pagesLeft: number;
  /** Not reading: waiting for its own inserts to make room (not a retry, not between segments). */
  storing: boolean;
  /** Reading its stream: not waiting for its inserts, a retry or its next segment. */
  active: boolean;
  /** Between its turn and the end of the batch it took. */
  reading: boolean;
}
