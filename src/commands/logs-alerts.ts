import type { LogEntry } from '../api/logs/index';
import type { FollowEngine } from '../log-engine/index';
import { AlertSet, replayAlerts, type AlertEvent } from '../log-records/alert-eval';
import { describeRuleError, formatDuration, parseAlertRule, type AlertRule } from '../log-records/alert-rule';
import { terminalSafe } from '../text/terminal-safe';
import { type Io, UsageError } from './types';

/**
 * `burrow logs --alert RULE [--alert RULE...] [--exit-on-alert]`: alert lines on stderr when a
 * rule fires or clears; records still go to stdout. With --follow the rules run on the records as
 * they arrive (window end: the time before which the engine expects no more records, as the
 * records printed); without it they are replayed over the window's records (replayAlerts).
 */

/** The exit status of `--exit-on-alert` when a rule fired. */
export const ALERT_EXIT_CODE = 3;

export interface AlertOptions {
  rules: AlertRule[];
  exitOnAlert: boolean;
}

/** The --alert values parsed (a bad one is a usage error showing where), or null without any. */
export function alertOptions(values: Record<string, unknown>): AlertOptions | null {
  const raw = values.alert;
  const texts = Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : typeof raw === 'string' ? [raw] : [];
  const exitOnAlert = Boolean(values['exit-on-alert']);
  if (texts.length === 0) {
    if (exitOnAlert) throw new UsageError('--exit-on-alert needs at least one --alert RULE (for example --alert "status=5xx rate>2/s over 60s")');
    return null;
  }
  const rules: AlertRule[] = [];
  for (const text of texts) {
    const parsed = parseAlertRule(text);
    if (!parsed.ok) throw new UsageError(`--alert: ${describeRuleError(terminalSafe(text), parsed.error)}`);
    rules.push(parsed.rule);
  }
  return { rules, exitOnAlert };
}

/** One stderr line per event: what happened, when (record time, ISO UTC whatever --utc says: scripts read it), the rule, what it saw. */
export function alertLine(e: AlertEvent): string {
  const at = new Date(e.at).toISOString();
  const window = e.rule.windowText;
  const seen =
    e.rule.measure === 'count'
      ? `observed ${e.count} record${e.count === 1 ? '' : 's'} in ${window}`
      : `observed ${e.observed} (${e.count} record${e.count === 1 ? '' : 's'} in ${window})`;
  const what = e.kind === 'fired' ? 'FIRING ' : 'CLEARED';
  const after = e.kind === 'cleared' ? ` after ${formatDuration(e.durationMs)}` : '';
  return `burrow alert: ${what} ${at}  ${terminalSafe(e.rule.text)}  ${seen}${after}\n`;
}

export interface FollowAlerts {
  /** Resolves at the first firing (only with --exit-on-alert; otherwise never). */
  fired: Promise<'alert'>;
  /** Evaluate once more (the records released so far) and stop. */
  dispose(): void;
}

/** Runs the rules on a follow engine's records, printing each event to stderr. */
export function watchFollow(options: AlertOptions, engine: Pick<FollowEngine, 'settledBefore' | 'onRecords' | 'subscribe'>, io: Io): FollowAlerts {
  const set = new AlertSet(() => engine.settledBefore());
  for (const r of options.rules) set.add(r);
  let resolveFired: (v: 'alert') => void = () => {};
  const fired = new Promise<'alert'>((resolve) => (resolveFired = resolve));
  let done = false;
  const evaluate = () => {
    if (done) return;
    for (const e of set.evaluate()) {
      io.stderr.write(alertLine(e));
      if (e.kind === 'fired' && options.exitOnAlert) resolveFired('alert');
    }
  };
  const offRecords = engine.onRecords((entries, times) => set.records(entries, times));
  const offChange = engine.subscribe(evaluate);
  // time passing with no record moves the windows too (a rule clears with no traffic)
  const timer = setInterval(evaluate, 1000);
  timer.unref?.();
  return {
    fired,
    dispose() {
      done = true;
      clearInterval(timer);
      offRecords();
      offChange();
    },
  };
}

/** Without --follow: the rules replayed over the records printed, up to `end`. True when one fired. */
export function reportReplay(options: AlertOptions, entries: readonly LogEntry[], times: ArrayLike<number>, end: number, io: Io, partial = false): boolean {
  const events = replayAlerts(options.rules, entries, times, end);
  const first = times.length > 0 ? new Date(times[0]!).toISOString() : null;
  // never a plain "no rule fired" over a window that was read only in part
  if (partial)
    io.stderr.write(
      `burrow alert: the window had more records than were read: the rules saw only the newest ${entries.length}${first ? ` (from ${first})` : ''}; raise --limit or narrow the window to replay all of it\n`,
    );
  for (const e of events) io.stderr.write(alertLine(e));
  const rules = `${options.rules.length} rule${options.rules.length === 1 ? '' : 's'}, ${entries.length} records`;
  if (events.length === 0)
    io.stderr.write(
      partial
        ? `burrow alert: no rule fired in the part of the window read (${rules}); the older part was not read\n`
        : `burrow alert: no rule fired in the window (${rules})\n`,
    );
  return events.some((e) => e.kind === 'fired');
}

/** Resolves once what was written to the stream has been handed to the system. */
export function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}
