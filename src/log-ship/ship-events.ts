import { redact } from '../config/redact';
import { terminalSafe } from '../text/terminal-safe';

export type EventFields = Record<string, string | number | boolean | null | undefined>;

/** What the zones report: one line per event, and the counters the status line and metrics show. */
export interface ShipEvents {
  emit(event: string, fields: EventFields, level?: 'debug' | 'info' | 'warn' | 'error'): void;
  /** A line only with --log-level debug (BURROW_SHIP_DEBUG=1): every insert, for tests and tracing. */
  debug(event: string, fields: EventFields): void;
  /** A platform request ended with this status (0: no answer). */
  request(zone: number, status: number): void;
  /** Records acknowledged by ClickHouse; `newest` their newest time (epoch ms). */
  stored(zone: number, count: number, newest: number): void;
  insertError(zone: number): void;
  /** Records ClickHouse refused, put aside. */
  rejected(zone: number, count: number): void;
}

const needsQuotes = /[\s"=\\]/;

function logfmtValue(v: string | number | boolean): string {
  const s = String(v);
  return s === '' || needsQuotes.test(s) ? JSON.stringify(s) : s;
}

/** One event as a line: logfmt (`time=... level=info event=start zone=1000`) or a JSON object. */
export function eventLine(format: 'logfmt' | 'json', time: number, level: string, event: string, fields: EventFields): string {
  const all: EventFields = { time: new Date(time).toISOString(), level, event, ...fields };
  const clean: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(all)) {
    if (v === undefined || v === null) continue;
    // text from outside (server messages) is made safe for a terminal and has no secrets
    clean[k] = typeof v === 'string' ? terminalSafe(redact(v)) : v;
  }
  if (format === 'json') return JSON.stringify(clean);
  return Object.entries(clean)
    .map(([k, v]) => `${k}=${logfmtValue(v)}`)
    .join(' ');
}
