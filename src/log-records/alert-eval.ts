import type { LogEntry } from '../api/logs/entry';
import { observedText, type AlertRule } from './alert-rule';
import { SlidingCount } from './alert-window';

/**
 * Alert rules evaluated over records as they arrive. Each rule keeps a sliding count of the
 * records that pass its conditions (SlidingCount: by the records' own timestamps, O(1) per record).
 * `evaluate()` reads the injected clock for the end of the window, so time passing with no record
 * moves the window too, and a rule clears when its records are gone.
 *
 * The clock gives the time up to which records are complete: for a live follow, the time before
 * which the engine expects no more records (now minus the ingestion lag it observes), which is
 * also what `burrow logs --follow` prints up to. null means "not known yet" (a backfill still
 * reading history): nothing is evaluated then, and no state changes.
 *
 * Hysteresis, exactly:
 * - a rule FIRES at the first evaluation where the count in its window passes the threshold
 *   (`>` or `>=` as written);
 * - while firing, it CLEARS at the first evaluation where the count has been under the threshold
 *   at every evaluation for at least one whole window length (the time since the first evaluation
 *   under it is >= the window). Going over again meanwhile starts that wait over.
 * So a rule that fired stays firing for at least one window after its last excess, and a count
 * that wobbles around the threshold does not fire again and again.
 */

export interface AlertEvent {
  kind: 'fired' | 'cleared';
  rule: AlertRule;
  /** The window end the event was decided at (record time). */
  at: number;
  /** Records in the window then. */
  count: number;
  /** The count as the rule measures it: "3.4/s" or "512". */
  observed: string;
  /** For 'cleared': how long the rule was firing (from firing to clearing). */
  durationMs: number;
}

export interface RuleStatus {
  rule: AlertRule;
  firing: boolean;
  /** When the rule fired (record time), while firing. */
  firedAt: number | null;
  /** The count at the last evaluation (null before the first). */
  count: number | null;
  observed: string | null;
  /** The last time it fired and cleared, and how long that lasted. */
  lastCleared: { at: number; durationMs: number } | null;
}

class RuleState {
  readonly window: SlidingCount;
  firing = false;
  firedAt: number | null = null;
  underSince: number | null = null;
  count: number | null = null;
  lastCleared: { at: number; durationMs: number } | null = null;

  constructor(readonly rule: AlertRule) {
    this.window = new SlidingCount(rule.windowMs);
  }

  over(count: number): boolean {
    return this.rule.comparison === '>' ? count > this.rule.countThreshold : count >= this.rule.countThreshold;
  }

  evaluate(end: number): AlertEvent | null {
    const count = this.window.advance(end);
    this.count = count;
    const over = this.over(count);
    const event = (kind: AlertEvent['kind'], durationMs: number): AlertEvent => ({
      kind,
      rule: this.rule,
      at: end,
      count,
      observed: observedText(this.rule, count),
      durationMs,
    });
    if (!this.firing) {
      if (!over) return null;
      this.firing = true;
      this.firedAt = end;
      this.underSince = null;
      return event('fired', 0);
    }
    if (over) {
      this.underSince = null;
      return null;
    }
    if (this.underSince === null) this.underSince = end;
    if (end - this.underSince < this.rule.windowMs) return null;
    const durationMs = end - (this.firedAt ?? end);
    this.firing = false;
    this.firedAt = null;
    this.underSince = null;
    this.lastCleared = { at: end, durationMs };
    return event('cleared', durationMs);
  }
}

export class AlertSet {
  private states: RuleState[] = [];
  private lastEnd: number | null = null;

  /** `clock`: the end of the window (see above); null while not known. */
  constructor(private readonly clock: () => number | null) {}

  get rules(): AlertRule[] {
    return this.states.map((s) => s.rule);
  }

  /**
   * Adds a rule; it counts the records that arrive from now on, and `history` (records already
   * held, oldest first, from its window on) so that it starts from what is on screen.
   */
  add(rule: AlertRule, history?: { entries: readonly LogEntry[]; times: ArrayLike<number> }): void {
    const state = new RuleState(rule);
    this.states.push(state);
    if (!history) return;
    for (let i = 0; i < history.entries.length; i++) if (rule.test(history.entries[i]!)) state.window.add(history.times[i]!);
  }

  remove(index: number): AlertRule | null {
    const [gone] = this.states.splice(index, 1);
    return gone?.rule ?? null;
  }

  /** A batch of new records, with their times (epoch ms). */
  records(entries: readonly LogEntry[], times: ArrayLike<number>): void {
    const states = this.states;
    if (states.length === 0) return;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const t = times[i]!;
      for (let r = 0; r < states.length; r++) if (states[r]!.rule.test(e)) states[r]!.window.add(t);
    }
  }

  /** Forgets the records counted (the store is refilled from scratch); firing rules stay firing. */
  resetCounts(): void {
    for (const s of this.states) s.window.clear();
  }

  /** Moves every window to the clock and returns what fired or cleared, in rule order. */
  evaluate(): AlertEvent[] {
    const end = this.clock();
    if (end === null || !Number.isFinite(end)) return [];
    if (this.lastEnd !== null && end < this.lastEnd) return [];
    this.lastEnd = end;
    const out: AlertEvent[] = [];
    for (const s of this.states) {
      const e = s.evaluate(end);
      if (e) out.push(e);
    }
    return out;
  }

  status(): RuleStatus[] {
    return this.states.map((s) => ({
      rule: s.rule,
      firing: s.firing,
      firedAt: s.firedAt,
      count: s.count,
      observed: s.count === null ? null : observedText(s.rule, s.count),
      lastCleared: s.lastCleared,
    }));
  }
}

/**
 * The rules run over a finished set of records (oldest first), as if they had arrived live with
 * no delay: the window moves one bucket at a time from the first record to `end`, so every firing
 * and clearing is found at the time it would have happened. For `burrow logs --alert` without
 * --follow.
 */
export function replayAlerts(rules: readonly AlertRule[], entries: readonly LogEntry[], times: ArrayLike<number>, end: number): AlertEvent[] {
  if (rules.length === 0 || entries.length === 0) return [];
  let clock = times[0]!;
  const set = new AlertSet(() => clock);
  for (const r of rules) set.add(r);
  const step = Math.min(...rules.map((r) => new SlidingCount(r.windowMs).bucketMs));
  const events: AlertEvent[] = [];
  let next = Math.floor(times[0]! / step) * step;
  const one: LogEntry[] = [entries[0]!];
  const at = [0];
  for (let i = 0; i < entries.length; i++) {
    const t = times[i]!;
    while (next <= t) {
      clock = next;
      events.push(...set.evaluate());
      next += step;
    }
    one[0] = entries[i]!;
    at[0] = t;
    set.records(one, at);
  }
  for (; next <= end + step; next += step) {
    clock = Math.min(next, end);
    events.push(...set.evaluate());
    if (clock === end) break;
  }
  return events;
}
