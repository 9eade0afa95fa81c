import fs from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import type { LogEntry } from '../api/logs/entry';
import { LOG_FIELD_NAMES } from '../log-fields/fields';
import { jsonTerminalSafe } from '../text/terminal-safe';
import { maskSecret } from '../config/redact';
import { openUserFile, UserFileExistsError, type Existing } from '../config/user-file';

/**
 * Export of log records to NDJSON (one LogEntry object per line, every field) or CSV (RFC 4180,
 * a header row with every field). The authorization header is masked unless secrets are shown.
 * Files are opened by config/user-file.ts: new, 0600, never through a link; what is there is
 * replaced only with `overwrite` (the person was asked, told when it is a link).
 */

export type ExportFormat = 'ndjson' | 'csv';

/** Every LogEntry field, in the API's order (the field table's): the CSV header. */
export const EXPORT_FIELDS = LOG_FIELD_NAMES;

export function exportRecord(e: LogEntry, showSecrets: boolean): LogEntry {
  return showSecrets || e.authorizationHeader === null ? e : { ...e, authorizationHeader: maskSecret(e.authorizationHeader) };
}

export function ndjsonLine(e: LogEntry, showSecrets = false): string {
  return `${jsonTerminalSafe(JSON.stringify(exportRecord(e, showSecrets)))}\n`;
}

/**
 * One CSV cell. Quoted when it holds a comma, quote, CR or LF. A text that a spreadsheet would
 * run as a formula (starting with =, +, @, a tab or CR, or - followed by more) gets a leading
 * apostrophe: user agents and URLs come from anyone on the internet. A lone "-" (the cache
 * status of a request without cache interaction) is left alone.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let s = String(value);
  if (typeof value === 'string' && (/^[=+@\t\r]/.test(s) || (s.length > 1 && s.startsWith('-')))) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvHeader(): string {
  return `${EXPORT_FIELDS.join(',')}\r\n`;
}

export function csvLine(e: LogEntry, showSecrets = false): string {
  const r = exportRecord(e, showSecrets);
  return `${EXPORT_FIELDS.map((f) => csvCell(r[f])).join(',')}\r\n`;
}

/** The format a path's extension asks for (.csv -> csv, anything else ndjson). */
export function formatOfPath(p: string): ExportFormat {
  return /\.csv$/i.test(p.trim()) ? 'csv' : 'ndjson';
}

/** burrow-logs-<zone>-<yyyymmdd>-<hhmmss>.<ext>, UTC, in `dir`. */
export function defaultExportPath(dir: string, zoneLabel: string, format: ExportFormat, now: number): string {
  const d = new Date(now);
  const p = (x: number) => String(x).padStart(2, '0');
  const stamp = `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  return path.join(dir, `burrow-logs-${zoneLabel}-${stamp}.${format === 'csv' ? 'csv' : 'ndjson'}`);
}

/** The same path with the extension of `format` (a default name following the format toggle). */
export function withFormat(p: string, format: ExportFormat): string {
  const ext = format === 'csv' ? '.csv' : '.ndjson';
  return /\.(csv|ndjson|jsonl)$/i.test(p) ? p.replace(/\.(csv|ndjson|jsonl)$/i, ext) : p + ext;
}

export class ExportExistsError extends Error {
  constructor(
    readonly path: string,
    readonly existing: Existing = { kind: 'file' },
  ) {
    super(`${path} already exists`);
  }
}

const write = promisify(fs.write);
const close = promisify(fs.close);

export interface ExportResult {
  path: string;
  records: number;
  bytes: number;
}

export interface ExportOptions {
  format: ExportFormat;
  overwrite?: boolean;
  showSecrets?: boolean;
  /** Records per write (default 2000). */
  chunk?: number;
}

/**
 * Writes the records (any iterable, read once) to `file`. Rejects with ExportExistsError when the
 * file exists and overwrite is not set. A failed write removes the partial file it created.
 */
export async function writeExport(file: string, records: Iterable<LogEntry>, options: ExportOptions): Promise<ExportResult> {
  const chunkSize = options.chunk ?? 2000;
  const show = options.showSecrets ?? false;
  let fd: number;
  try {
    // 0600: exported logs hold client IPs, user agents and referers
    fd = openUserFile(file, { replace: options.overwrite });
  } catch (error) {
    if (error instanceof UserFileExistsError) throw new ExportExistsError(file, error.existing);
    throw error;
  }
  let count = 0;
  let bytes = 0;
  let ok = false;
  try {
    let parts: string[] = [];
    const flush = async () => {
      if (!parts.length) return;
      const text = parts.join('');
      parts = [];
      const buf = Buffer.from(text, 'utf8');
      bytes += buf.length;
      for (let at = 0; at < buf.length;) at += (await write(fd, buf, at, buf.length - at)).bytesWritten;
    };
    if (options.format === 'csv') parts.push(csvHeader());
    for (const e of records) {
      parts.push(options.format === 'csv' ? csvLine(e, show) : ndjsonLine(e, show));
      count++;
      if (parts.length >= chunkSize) await flush();
    }
    await flush();
    ok = true;
  } finally {
    await close(fd);
    if (!ok) await fs.promises.rm(file, { force: true });
  }
  return { path: file, records: count, bytes };
}

/** Reads a CSV export back (for tests and round trips): rows of cells, quotes undone. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
