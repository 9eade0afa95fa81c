import type { Tone } from '../../components/theme';
import { terminalSafe } from '../../text/terminal-safe';
import type { FixedWindowState, LiveStatus, LocalFilterState, V1State, WindowKey } from '../../state/logs/store';
import { formatTime } from '../../text/time-format';

/** Pure text for the logs screen's title and status lines (tested without a terminal). */

export interface Part {
  text: string;
  tone?: Tone;
}

const n = (x: number) => x.toLocaleString('en-US');

/** 950ms, 3s, 2m 5s, 1h 2m */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s % 60 ? ` ${s % 60}s` : ''}`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** HH:MM:SS in the display zone (the time column's clock). */
function clock(ms: number): string {
  return formatTime(ms, 'clock');
}

export interface StatusInput {
  following: boolean;
  newWhilePaused: number;
  /** Records the full buffer let go while paused. */
  evictedWhilePaused?: number;
  /** The record the paused view was on was evicted (the oldest held are shown). */
  rowsEvicted?: boolean;
  newMatchesWhilePaused: number;
  filtering: boolean;
  live: LiveStatus | null;
  windowKey: WindowKey;
  /** Shorter words for narrow terminals. */
  compact?: boolean;
}

/**
 * "● following · lag 2s · re-checking last 2m · budget 4/25 · 1,234 buffered · 0 dropped", with
 * "❚❚ paused · 37 new", "rate limited (429): backing off 4s", "retrying: …" or the failure first.
 */
export function liveStatusParts(s: StatusInput, now: number): Part[] {
  const live = s.live;
  const parts: Part[] = [];
  if (!live) return [{ text: 'starting…', tone: 'muted' }];
  const backoff = live.backoffUntil !== null && live.backoffUntil > now ? live.backoffUntil - now : 0;
  if (live.state === 'failed') parts.push({ text: `✖ stopped: ${live.error ?? 'failed'}`, tone: 'error' });
  else if (live.state === 'starting' || live.state === 'idle') parts.push({ text: 'starting…', tone: 'muted' });
  else if (live.state === 'backfilling' && live.coveredTo === null) parts.push({ text: `loading the last ${s.windowKey}…`, tone: 'info' });
  else if (!s.following) {
    const fresh = s.filtering
      ? `${n(s.newMatchesWhilePaused)} new match${s.newMatchesWhilePaused === 1 ? '' : 'es'} (${n(s.newWhilePaused)} record${s.newWhilePaused === 1 ? '' : 's'})`
      : `${n(s.newWhilePaused)} new`;
    const gone = s.evictedWhilePaused ? ` · ${n(s.evictedWhilePaused)} evicted (buffer full)` : '';
    parts.push({ text: `❚❚ paused · ${fresh}${gone}`, tone: 'warn' });
    if (s.rowsEvicted)
      parts.push({ text: 'the rows you were reading were evicted (buffer full): showing the oldest held; G jumps to the newest', tone: 'warn' });
  } else parts.push({ text: '● following', tone: 'ok' });
  if (backoff > 0 || live.state === 'rate-limited') {
    parts.push({ text: `rate limited (429)${backoff > 0 ? `: backing off ${duration(backoff)}` : ''}`, tone: 'warn' });
  } else if (live.state === 'retrying') {
    parts.push({ text: `retrying: ${live.error ?? 'request failed'}`, tone: 'warn' });
  }
  const c = s.compact ?? false;
  if (live.coveredTo !== null) parts.push({ text: `lag ${duration(Math.max(0, now - live.coveredTo))}` });
  if (live.recheckMs > 0 && live.state !== 'failed')
    parts.push({ text: c ? `re-check ${Math.round(live.recheckMs / 1000)}s` : `re-checking last ${Math.round(live.recheckMs / 1000)} s`, tone: 'muted' });
  parts.push({
    text: `budget ${live.budgetUsed}/${live.budgetLimit}${live.budgetWaiting ? ` +${live.budgetWaiting}` : ''}`,
    tone: live.budgetUsed >= live.budgetLimit ? 'warn' : 'muted',
  });
  parts.push({ text: `${n(live.buffered)} ${c ? 'buf' : 'buffered'}` });
  const oldest = live.dropped > 0 && live.oldest !== null ? `, oldest held ${clock(live.oldest)}` : '';
  parts.push({ text: `${n(live.dropped)} dropped${oldest}`, tone: live.dropped > 0 ? 'warn' : 'muted' });
  if (live.backfillTruncated) parts.push({ text: 'backfill capped at the buffer size', tone: 'warn' });
  return parts;
}

/** "640 kB", "180 MB", "1.2 GB" (powers of 10). */
function megabytes(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : bytes >= 1e6 ? `${Math.round(bytes / 1e6)} MB` : `${Math.round(bytes / 1e3)} kB`;
}

/** "41% · 180 MB of 440 MB", or "180 MB" when the server gave no size. */
export function v1ReadText(v1: V1State): string {
  if (v1.totalBytes === null || v1.totalBytes <= 0) return `${megabytes(v1.bytes)} read`;
  const share = Math.min(100, Math.floor((v1.bytes / v1.totalBytes) * 100));
  return `${share}% · ${megabytes(v1.bytes)} of ${megabytes(v1.totalBytes)}`;
}

export function v1StatusParts(v1: V1State, following: boolean): Part[] {
  if (v1.error) {
    const kept = v1.kept ? ` (${n(v1.kept)} records read before it are shown)` : '';
    return [
      { text: `✖ v1 ${v1.date}: ${v1.error}${kept}`, tone: 'error' },
      { text: 'esc: back to live', tone: 'muted' },
    ];
  }
  if (v1.loading) {
    // what matters while reading first (the line may be cut at the right): how far, and how to stop
    const reading: Part[] = [
      { text: `reading v1 day ${v1.date} (UTC)`, tone: 'info' },
      { text: v1ReadText(v1), tone: 'info' },
      { text: 'esc: stop reading (keeps what was read)', tone: 'muted' },
    ];
    if (!following) reading.push({ text: '❚❚ paused', tone: 'warn' });
    reading.push({ text: `${n(v1.lines)} lines${v1.rate ? ` (${n(v1.rate)}/s)` : ''}` }, { text: `${n(v1.kept)} shown` });
    if (v1.skipped) reading.push({ text: `${n(v1.skipped)} skipped (malformed)`, tone: 'warn' });
    if (v1.evicted) reading.push({ text: `oldest ${n(v1.evicted)} evicted (buffer full: the newest kept)`, tone: 'warn' });
    return reading;
  }
  const parts: Part[] = [{ text: `v1 day ${v1.date} (UTC)`, tone: 'accent' }];
  if (!following) parts.push({ text: '❚❚ paused', tone: 'warn' });
  parts.push({ text: `${n(v1.lines)} lines` });
  parts.push({ text: `${n(v1.kept)} shown` });
  const first = v1.problems[0];
  parts.push({
    text: `${n(v1.skipped)} skipped (malformed)${first ? `: line ${first.line} ${first.reason}` : ''}`,
    tone: v1.skipped > 0 ? 'warn' : 'muted',
  });
  if (v1.evicted) parts.push({ text: `oldest ${n(v1.evicted)} evicted (buffer full: the newest kept)`, tone: 'warn' });
  if (v1.stopped) parts.push({ text: `read stopped at ${v1ReadText(v1).replace(/ read$/, '')}: r reads the whole day`, tone: 'warn' });
  parts.push({ text: 'esc: back to live', tone: 'muted' });
  return parts;
}

export interface TitleInput {
  zoneId: number;
  zoneName: string | null;
  /** Several zones merged: their ids, and names as known. */
  zones?: readonly number[];
  zoneNames?: Readonly<Record<number, string>>;
  source: 'live' | 'v1';
  windowKey: WindowKey;
  serverFilter: string;
  /** An absolute window from the filter form, said instead of the 1-5 window. */
  windowText?: string;
  local: LocalFilterState;
  wrap: boolean;
}

export function titleParts(t: TitleInput): Part[] {
  const several = t.zones && t.zones.length > 1 ? t.zones : null;
  const named = (id: number) => `${id}${t.zoneNames?.[id] ? ` ${terminalSafe(t.zoneNames[id]!)}` : ''}`;
  const parts: Part[] = [
    several
      ? { text: `${several.length} zones ${several.map(named).join(', ')}`, tone: 'accent' }
      : { text: `zone ${t.zoneId}${t.zoneName ? ` ${terminalSafe(t.zoneName)}` : ''}`, tone: 'accent' },
  ];
  parts.push({ text: t.source === 'v1' ? 'v1 file' : (t.windowText ?? `window ${t.windowKey}`), tone: t.windowText && t.source !== 'v1' ? 'info' : undefined });
  parts.push({ text: t.serverFilter ? `server: ${t.serverFilter}` : 'no server filter', tone: t.serverFilter ? 'info' : 'muted' });
  if (t.local.pattern !== null) {
    const how = t.local.mode === 'filter' ? `filter${t.local.context ? ` ±${t.local.context}` : ''}` : 'highlight';
    const count = t.local.counting
      ? `counting… ${Math.floor(t.local.progress * 100)}% (${n(t.local.matches)} so far)`
      : `${n(t.local.matches)} match${t.local.matches === 1 ? '' : 'es'}`;
    parts.push({ text: `/${t.local.pattern}/ ${how}: ${count}`, tone: 'accent' });
  }
  if (t.wrap) parts.push({ text: 'wrap', tone: 'muted' });
  return parts;
}

/** The status of a from..to window, read once: loading, failed, or how many records it holds. */
export function fixedStatusParts(f: FixedWindowState, following: boolean): Part[] {
  if (f.store) return storeWindowParts(f, f.store, following);
  if (f.loading) return [{ text: 'reading the window…', tone: 'info' }];
  if (f.error)
    return [
      { text: `✖ ${f.error}`, tone: 'error' },
      { text: 'r tries again · X clears the window', tone: 'muted' },
    ];
  const parts: Part[] = [{ text: '■ fixed window (not following)', tone: 'accent' }];
  if (!following) parts.push({ text: '❚❚ paused', tone: 'warn' });
  parts.push({ text: `${n(f.records)} record${f.records === 1 ? '' : 's'}` });
  if (f.truncated) parts.push({ text: 'more than the buffer holds: the newest were kept', tone: 'warn' });
  parts.push({ text: '1-5 or X: back to following', tone: 'muted' });
  return parts;
}

/** "41% · 12,000 of 29,000 records", or "12,000 records" before ClickHouse counted them. */
function storeReadText(p: NonNullable<FixedWindowState['store']>): string {
  if (p.total === null) return `${n(p.read)} records read`;
  const share = p.total > 0 ? Math.min(100, Math.floor((p.read / p.total) * 100)) : 100;
  return `${share}% · ${n(p.read)} of ${n(p.total)} records`;
}

/** A window past the platform's retention, read from the log store: progress and esc while reading. */
function storeWindowParts(f: FixedWindowState, p: NonNullable<FixedWindowState['store']>, following: boolean): Part[] {
  if (f.error) {
    const kept = f.records ? ` (${n(f.records)} records read before it are shown)` : '';
    // ClickHouse's own message: the server's text
    return [
      { text: `✖ ${terminalSafe(f.error)}${kept}`, tone: 'error' },
      { text: 'r tries again · X clears the window', tone: 'muted' },
    ];
  }
  if (f.loading) {
    const parts: Part[] = [
      { text: 'reading the window from the log store', tone: 'info' },
      { text: storeReadText(p), tone: 'info' },
      { text: 'esc: stop reading (keeps what was read)', tone: 'muted' },
    ];
    if (!following) parts.push({ text: '❚❚ paused', tone: 'warn' });
    return parts;
  }
  const parts: Part[] = [{ text: '■ window from the log store (not following)', tone: 'accent' }];
  if (!following) parts.push({ text: '❚❚ paused', tone: 'warn' });
  parts.push({ text: `${n(f.records)} record${f.records === 1 ? '' : 's'}` });
  if (p.stopped) parts.push({ text: `read stopped at ${storeReadText(p)}: r reads the whole window`, tone: 'warn' });
  if (f.truncated) parts.push({ text: 'more than the buffer holds: the newest were kept', tone: 'warn' });
  parts.push({ text: '1-5 or X: back to following', tone: 'muted' });
  return parts;
}
