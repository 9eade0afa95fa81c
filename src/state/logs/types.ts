import type { LogBuffer } from '../../log-engine/buffer';
import type { StoreApi } from 'zustand/vanilla';
import { parseV1Date, RETENTION_MS, v1Date, type LogEntry } from '../../api/logs/index';
import { type BackfillProgress, type ZoneFollowStatus } from '../../log-engine/index';
import type { TextState } from '../../keys/text-edit';
import type { ExportFormat, ExportResult } from '../../log-records/export';
import type { StreamLayout, TimeMode } from '../../log-records/rows';
import type { StatsSnapshot } from '../../log-records/stats';
import type { AbsoluteWindow, FilterDraft, FilterForm } from './filter-form';
import type { FixedWindowState } from './fixed-window';
import type { LocalMode, ViewWindow } from './view-model';
import type { MarkRow } from './marks';
import type { TimelineActions, TimelineState } from './timeline';
import type { AlertsStore } from './alerts';
import type { ZoneLive } from './zone-status';

export type { ZoneLive } from './zone-status';

/** The logs screen's state and actions (the store in logs-store.ts), and the pure rules they share. */

/** Time window keys (k9s-style): how far back a follow starts. */
export const WINDOWS = [
  { key: '1m', ms: 60_000 },
  { key: '5m', ms: 5 * 60_000 },
  { key: '15m', ms: 15 * 60_000 },
  { key: '1h', ms: 3_600_000 },
  { key: '3d', ms: RETENTION_MS },
] as const;
export type WindowKey = (typeof WINDOWS)[number]['key'];

export const DAY_MS = 86_400_000;

export interface PickerZone {
  id: number;
  name: string;
  hostname: string;
}

export interface PickerState {
  zones: PickerZone[];
  /** Zones of the account without logging (not offered). */
  withoutLogging: number;
  loading: boolean;
  error: string | null;
  loadedAt: number | null;
}

/** What the status line shows about the live follow. */
export interface LiveStatus {
  state: ZoneFollowStatus['state'] | 'idle';
  error: string | null;
  errorStatus: number | null;
  coveredTo: number | null;
  newest: number | null;
  recheckMs: number;
  ingestLagMs: number;
  intervalMs: number;
  backoffUntil: number | null;
  requests: number;
  late: number;
  backfillTruncated: boolean;
  backfill: BackfillProgress | null;
  buffered: number;
  dropped: number;
  /** Time of the oldest record held (what the full buffer has not let go yet). */
  oldest: number | null;
  duplicates: number;
  budgetUsed: number;
  budgetLimit: number;
  budgetWaiting: number;
  rateLimited: number;
  /** Several zones followed: each zone's own state, budget and errors (empty or absent for one zone). */
  zones?: readonly ZoneLive[];
}

export interface V1State {
  date: string;
  /** The day is being read (a stream: records show as they come). */
  loading: boolean;
  error: string | null;
  /** Non-blank lines read so far. */
  lines: number;
  skipped: number;
  problems: { line: number; reason: string }[];
  /** Records held from the day now (after the server filters, applied locally). */
  kept: number;
  /** Records of the day evicted to make room for newer ones (the buffer holds the newest, as live). */
  evicted: number;
  /** Bytes of the file read, and its size when the server said it. */
  bytes: number;
  totalBytes: number | null;
  /** Records read per second so far (0 until a second's worth). */
  rate: number;
  /** The read was stopped (esc or ctrl-c): what was read is kept, the rest of the day is not. */
  stopped: boolean;
}

export interface LocalFilterState {
  editing: boolean;
  text: TextState;
  error: string | null;
  pattern: string | null;
  mode: LocalMode;
  context: number;
  /** Matches known so far; all of them once `counting` is false. */
  matches: number;
  /** A new pattern is still being tried on the records held when it was set. */
  counting: boolean;
  /** How much of that scan is done, 0..1. */
  progress: number;
}

export type Prompt =
  | { kind: 'export'; text: TextState; format: ExportFormat; error: string | null; records: number; markedOnly?: boolean; marked?: number }
  | { kind: 'v1'; text: TextState; error: string | null }
  /** `@`: a time to jump to; `offer` is the text whose nearest record a second enter goes to. */
  | { kind: 'time'; text: TextState; error: string | null; offer?: string | null };

export interface LogsState extends TimelineActions {
  /** The zone followed, or the first of several. */
  zoneId: number | null;
  /** Every zone followed (one, or several merged: `:logs 1058 1199`). */
  zones: readonly number[];
  /** Names of the zones (from the management API), by id, as they become known. */
  zoneNames: Readonly<Record<number, string>>;
  zoneName: string | null;
  /** Why this zone cannot be followed (no logging, not found); null when it can. */
  zoneProblem: string | null;
  picker: PickerState;
  source: 'live' | 'v1';
  windowKey: WindowKey;
  /** The server filters in use (with the from/to fields as typed, pinned to absolute times). */
  filter: FilterDraft;
  /** An absolute window from the filter form (instead of the 1-5 window); null: none. */
  absolute: AbsoluteWindow | null;
  /** The absolute window has an end: read once, not followed. */
  fixed: FixedWindowState | null;
  form: FilterForm | null;
  local: LocalFilterState;
  wrap: boolean;
  timeMode: TimeMode;
  showStats: boolean;
  /** The view sticks to the newest record; false = paused (frozen where it is). */
  following: boolean;
  newWhilePaused: number;
  /** Records the full buffer let go since the view was paused (what was on screen may be gone). */
  evictedWhilePaused: number;
  /** Paused, and the record the view was on was evicted: the oldest held are shown instead. */
  rowsEvicted: boolean;
  newMatchesWhilePaused: number;
  view: ViewWindow & { version: number };
  layout: StreamLayout;
  live: LiveStatus | null;
  v1: V1State | null;
  stats: StatsSnapshot | null;
  detail: { entry: LogEntry; scroll: number } | null;
  prompt: Prompt | null;
  lastExport: ExportResult | null;
  /** Marked records: how many, and a counter bumped on every change (rows draw the mark). */
  marks: { count: number; version: number };
  /** The marks list of the stats panel has the keys, its cursor on this mark (oldest first); null: the table has them. */
  markCursor: number | null;
  timeline: TimelineState;
  /** The alert rules on these records (`A`) and their banner: a store of its own, the same for the store's life. */
  alerts: AlertsStore;

  /** The screen mounted with its argument (a zone id or null for the picker); returns the unmount. */
  attach(arg: string | null): () => void;
  loadPicker(): Promise<void>;
  setViewport(width: number, height: number): void;

  move(kind: 'down' | 'up' | 'pageDown' | 'pageUp' | 'top' | 'bottom'): void;
  togglePause(): void;
  pollNow(): void;
  setWindow(key: WindowKey): void;
  toggleWrap(): void;
  cycleTime(): void;
  toggleStats(): void;

  startLocalEdit(): void;
  setLocalText(text: TextState): void;
  applyLocal(): void;
  cancelLocalEdit(): void;
  /** Clears the local pattern; false when there is none. */
  clearLocal(): boolean;
  toggleLocalMode(): void;
  changeContext(delta: number): void;
  jumpMatch(dir: 1 | -1): void;
  /** Selects the first row at or after epoch ms `t`, pausing there; the time of that row, or null when there is none. */
  jumpToTime(t: number): number | null;

  openForm(): void;
  setFormText(text: TextState): void;
  focusField(delta: number): void;
  applyForm(): boolean;
  cancelForm(): void;
  clearServerFilters(): void;

  openDetail(): void;
  scrollDetail(delta: number): void;
  closeDetail(): boolean;
  /** The text a copy key puts on the clipboard, or a message saying why there is none. */
  copyText(kind: 'id' | 'json'): { text: string; what: string } | { error: string };

  openExport(): void;
  openV1(): void;
  setPromptText(text: TextState): void;
  toggleExportFormat(): void;
  submitPrompt(): void;
  cancelPrompt(): void;
  /** Leaves the v1 day for the live follow; false when not on a v1 day. */
  closeV1(): boolean;
  /** Stops reading the v1 day, keeping what was read (esc, ctrl-c); false when no day is being read. */
  stopV1(): boolean;
  /** The records the screen holds (read by `:sql logs`; a new query makes a new buffer). */
  recordBuffer(): LogBuffer;

  /** Marks or unmarks the selected record. */
  toggleMark(): void;
  /** Selects the next (1) or previous (-1) mark, going around at the ends. */
  jumpMark(dir: 1 | -1): void;
  clearMarks(): void;
  /** Whether a record is marked (for drawing the rows). */
  isMarked(e: LogEntry): boolean;
  /** The marks for the stats panel, oldest first. */
  markRows(): MarkRow[];
  /** `'`: the keys go to the marks list of the stats panel (opened for it), or back to the table. */
  focusMarks(): void;
  /** The list's cursor by `delta` marks. */
  moveMarkCursor(delta: number): void;
  /** Enter on the list: the table selects the cursor's mark, or the status bar says why it cannot (evicted, hidden). */
  jumpToMarkCursor(): void;
  /** The list gives the keys back to the table; false when it did not have them. */
  leaveMarks(): boolean;
  /** `@`: asks for a time to jump to. */
  openTimeJump(): void;
  /** In the export prompt: the marked records only, or everything shown. */
  toggleExportMarked(): void;
}

export type LogsStore = StoreApi<LogsState>;

export interface LogsStoreOptions {
  /** Relative export paths are written here (default: the working directory). */
  cwd?: string;
  /** Least time between two data-driven updates of the view (default 100 ms: 10 frames/s). */
  frameMs?: number;
  /** Least time between two statistics snapshots (default 500 ms). */
  statsMs?: number;
}

export function windowMs(key: WindowKey): number {
  return WINDOWS.find((w) => w.key === key)!.ms;
}

/** A v1 date as typed, checked against the retention: the day start, or a message. */
export function checkV1Date(text: string, now: number): { day: number } | { error: string } {
  const day = parseV1Date(text);
  const first = Math.floor((now - RETENTION_MS) / DAY_MS) * DAY_MS;
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const range = `${v1Date(first)} to ${v1Date(today)}`;
  if (Number.isNaN(day)) return { error: `"${text.trim()}" is not a date: use MM-dd-yy (UTC), one of ${range}` };
  if (day > today) return { error: `${text.trim()} is in the future: logs are kept 3 days, pick a day from ${range}` };
  if (day + DAY_MS <= now - RETENTION_MS) return { error: `${text.trim()} is older than the 3-day retention: pick a day from ${range}` };
  return { day };
}
