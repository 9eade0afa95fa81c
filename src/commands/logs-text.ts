import type { LogEntry } from '../api/logs/index';
import { LOG_FIELDS, type TextColumnDef } from '../log-fields/fields';
import { parseTimestamp } from '../api/logs/entry';
import { maskSecret } from '../config/redact';
import { csvHeader, csvLine } from '../log-records/export';
import { jsonTerminalSafe, terminalSafe } from '../text/terminal-safe';
import { formatTime, isoWidth } from '../text/time-format';
import { cellWidth, fitCells } from '../text/cells';
import type { Column } from './output';
import type { Io } from './types';
import { paintZone, zoneColour } from '../log-records/zone-colours';
import { writeStyled } from '../runtime/terminal-output';

type Shown = (typeof LOG_FIELDS)[number] & { text: TextColumnDef };

/** A shown field's cell: the time in the display zone (ndjson and json keep the ISO UTC timestamp), the URL from its parts when absent. */
function cellOf(f: Shown): (e: LogEntry) => string | number {
  const { name, storage, text } = f;
  if (storage === 'time') return (e) => displayTime(e[name] as string);
  if (storage === 'derived') return (e) => e.url ?? `${e.host ?? ''}${e.path ?? ''}`;
  return (e) => {
    const v = e[name];
    return v === null ? text.empty : text.quoted ? `"${v}"` : v;
  };
}

// Text output: fixed widths so lines align while streaming (the field table's text columns).
const COLUMNS: (Column<LogEntry> & { width: number; right?: boolean })[] = LOG_FIELDS.filter((f): f is Shown => f.text !== null)
  .sort((a, b) => a.text.place - b.text.place)
  .map((f) => ({ header: f.text.header, width: f.text.width, right: f.text.right, value: cellOf(f) }));

function displayTime(timestamp: string): string {
  const t = parseTimestamp(timestamp);
  return Number.isNaN(t) ? timestamp : formatTime(t, 'iso');
}

// Control characters from hostile user agents or URLs must not reach a terminal.
const visible = terminalSafe;

/** One record as a text line; with `colourZones` (the merged zones, in order) the zone is in its colour. */
export function textLine(e: LogEntry, showZone: boolean, colourZones: readonly number[] | null = null): string {
  const cells: string[] = [];
  for (const c of COLUMNS) {
    if (c.header === 'ZONE' && !showZone) continue;
    const v = visible(String(c.value(e)));
    const width = c.header === 'TIME' ? isoWidth() : c.width;
    const cell = width === 0 ? v : c.right ? v.padStart(width) : v.padEnd(width);
    cells.push(c.header === 'ZONE' && colourZones ? paintZone(cell, zoneColour(colourZones, e.pullZoneId)) : cell);
  }
  return cells.join(' ');
}

function masked(e: LogEntry, show: boolean): LogEntry {
  return show || e.authorizationHeader === null ? e : { ...e, authorizationHeader: maskSecret(e.authorizationHeader) };
}

/** The URL column of `-o table` while following (the widths cannot wait for the records): longer URLs end in …. */
const FOLLOW_URL_WIDTH = 60;

function shownColumns(showZone: boolean) {
  return COLUMNS.filter((c) => c.header !== 'ZONE' || showZone);
}

/**
 * The widths of `-o table`, in terminal cells: every column as wide as its header and (given the
 * records) its widest value; the last column is not padded. Without records (a follow) the
 * fixed widths, the time as wide as the display zone makes it, and the URL cut at 60 cells.
 */
export function tableWidths(showZone: boolean, entries: readonly LogEntry[] | null = null): number[] {
  const cols = shownColumns(showZone);
  return cols.map((c, i) => {
    if (i === cols.length - 1) return 0;
    let w = Math.max(cellWidth(c.header), c.header === 'TIME' ? isoWidth() : c.header === 'URL' ? (entries ? 0 : FOLLOW_URL_WIDTH) : c.width);
    if (entries) for (const e of entries) w = Math.max(w, cellWidth(visible(String(c.value(e)))));
    return w;
  });
}

/** One record of `-o table` at `widths` (tableWidths): cells cut with … only when a width is fixed. */
export function tableLine(e: LogEntry, showZone: boolean, widths: readonly number[]): string {
  return shownColumns(showZone)
    .map((c, i) => {
      const v = visible(String(c.value(e)));
      const w = widths[i] ?? 0;
      return w === 0 ? v : fitCells(v, w, c.right ? 'right' : 'left');
    })
    .join(' ');
}

/** The header line of `-o table`: the columns' names at their widths. */
export function tableHeader(showZone: boolean, widths: readonly number[] = tableWidths(showZone)): string {
  return shownColumns(showZone)
    .map((c, i) => {
      const w = widths[i] ?? 0;
      return w === 0 ? c.header : fitCells(c.header, w, c.right ? 'right' : 'left');
    })
    .join(' ');
}

export type Format = 'text' | 'ndjson' | 'json' | 'table' | 'csv';

/** Writes records one by one in the chosen format (json: one array, closed by end()). */
export class RecordWriter {
  private count = 0;
  private widths: number[] | null = null;
  /** `colourZones`: the merged zones whose colours text lines show (null: no colours). */
  constructor(
    private readonly io: Io,
    private readonly format: Format,
    private readonly showSecrets: boolean,
    private readonly showZone: boolean,
    private readonly colourZones: readonly number[] | null = null,
  ) {}
  /** The records about to be written, all known: `-o table` sizes its columns to them (else fixed widths). */
  prepare(entries: readonly LogEntry[]): void {
    if (this.format === 'table' && this.count === 0) this.widths = tableWidths(this.showZone, entries);
  }
  write(e: LogEntry): void {
    const entry = masked(e, this.showSecrets);
    if (this.format === 'table') {
      this.widths ??= tableWidths(this.showZone);
      if (this.count === 0) this.io.stdout.write(`${tableHeader(this.showZone, this.widths)}\n`);
    }
    if (this.count === 0 && this.format === 'csv') this.io.stdout.write(csvHeader());
    if (this.format === 'table') this.io.stdout.write(`${tableLine(entry, this.showZone, this.widths!)}\n`);
    else if (this.format === 'text' && this.colourZones) writeStyled(this.io.stdout, `${textLine(entry, this.showZone, this.colourZones)}\n`);
    else if (this.format === 'text') this.io.stdout.write(`${textLine(entry, this.showZone)}\n`);
    else if (this.format === 'csv') this.io.stdout.write(csvLine(entry, true));
    else if (this.format === 'ndjson') this.io.stdout.write(`${jsonTerminalSafe(JSON.stringify(entry))}\n`);
    else this.io.stdout.write(`${this.count ? ',\n' : '[\n'}  ${jsonTerminalSafe(JSON.stringify(entry))}`);
    this.count++;
  }
  end(): void {
    if (this.format === 'json') this.io.stdout.write(this.count ? '\n]\n' : '[]\n');
  }
}
