import { cellWidth, padCells } from '../text/cells';
import { maskSecretFields } from '../config/redact';
import type { OutputFormat } from '../config/settings';
import { jsonTerminalSafe, terminalSafe } from '../text/terminal-safe';

export interface Column<T> {
  header: string;
  /** What a person reads: the table's text. */
  value: (row: T) => unknown;
  /** What a program reads (CSV): raw numbers, ISO times; default: value. */
  raw?: (row: T) => unknown;
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function csvEscape(text: string): string {
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Aligned plain-text table (widths in terminal cells: CJK takes two); never colours, so it is safe in pipes.
 * A human format wherever it goes: line breaks become spaces, other controls visible escapes.
 */
export function renderTable<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((r) => columns.map((c) => terminalSafe(cellText(c.value(r)).replace(/[\r\n\t]+/g, ' '))));
  // a loop, not Math.max(...column): a spread of 100,000+ rows overflows the call stack
  const widths = columns.map((c) => cellWidth(c.header));
  for (const row of cells) for (let i = 0; i < row.length; i++) widths[i] = Math.max(widths[i]!, cellWidth(row[i]!));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => (i === vals.length - 1 ? v : padCells(v, widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n') + '\n';
}

export function renderCsv<T>(rows: T[], columns: Column<T>[]): string {
  const out = [columns.map((c) => csvEscape(c.header)).join(',')];
  for (const r of rows) out.push(columns.map((c) => csvEscape(cellText((c.raw ?? c.value)(r)))).join(','));
  return out.join('\n') + '\n';
}

export interface FormatOptions<T> {
  format: OutputFormat;
  /** The full records for json/ndjson (secrets masked unless showSecrets). */
  records: T[];
  columns: Column<T>[];
  showSecrets?: boolean;
  /** Print a single object (not an array) for json. */
  single?: boolean;
}

/** Formats records for stdout in the chosen format. */
export function formatRecords<T>(opts: FormatOptions<T>): string {
  const records = opts.showSecrets ? opts.records : opts.records.map((r) => maskSecretFields(r));
  switch (opts.format) {
    case 'json':
      return jsonTerminalSafe(JSON.stringify(opts.single ? (records[0] ?? null) : records, null, 2)) + '\n';
    case 'ndjson':
      return records.map((r) => jsonTerminalSafe(JSON.stringify(r))).join('\n') + (records.length ? '\n' : '');
    case 'csv':
      // exact: at a terminal the command's stream (runtime/terminal-output.ts) makes it safe
      return renderCsv(records, opts.columns);
    case 'table':
    case 'text':
      return renderTable(records, opts.columns);
  }
}
