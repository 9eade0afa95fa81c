import { distinctKeys, valueJson, valueText, type SqlValue, type StatementResult } from '../api/database/index';
import { csvEscape } from './output';
import { cellWidth, padCells } from '../text/cells';
import { jsonTerminalSafe, terminalSafe } from '../text/terminal-safe';

export type SqlOutputFormat = 'table' | 'csv' | 'json' | 'ndjson';

type Sink = NodeJS.WritableStream;

const CHUNK = 64 * 1024;

/**
 * Writes result sets as they arrive, in chunks, with backpressure: no pretty-printed copy of a
 * whole result is ever built. table: aligned columns (two spaces, as `burrow get`); csv: header and
 * rows, NULL empty; json: one array of row objects per result set; ndjson: one object per row (in
 * both, a repeated column name becomes name_2, name_3...).
 * Statements without columns (INSERT, CREATE...) print nothing, except a note when `human`.
 * Outside text cannot drive a terminal: table cells show controls as visible escapes, json and
 * ndjson escape DEL, C1 and bidi characters, csv is exact (at a terminal the command's stream,
 * src/runtime/terminal-output.ts, makes every write safe).
 */
/**
 * What a write reports, as psql's command tag: `DELETE 2`, `INSERT 1`, `UPDATE 0` (null for a
 * statement that is not INSERT, UPDATE, DELETE or REPLACE, or that returned rows).
 */
export function writeTag(firstWord: string, r: Pick<StatementResult, 'columns' | 'rowsAffected'>): string | null {
  const word = firstWord.toUpperCase();
  if (r.columns.length > 0 || !['INSERT', 'UPDATE', 'DELETE', 'REPLACE'].includes(word)) return null;
  return `${word} ${r.rowsAffected}`;
}

export class ResultPrinter {
  private buffer = '';
  private sets = 0;
  private keys: string[] | null = null;
  private heldJsonRow: string | null = null;
  private jsonRows = 0;

  constructor(
    private readonly out: Sink,
    private readonly format: SqlOutputFormat,
    private readonly human: boolean,
  ) {}

  /** `tag`: what a write reports (`DELETE 2`), printed in table format (the others keep stdout to rows). */
  async result(r: StatementResult, tag: string | null = null): Promise<void> {
    if (r.columns.length === 0) {
      if (this.format === 'table' && tag !== null) await this.line(tag);
      return;
    }
    if (this.format === 'table') {
      if (this.sets++ > 0) await this.line('');
      return this.table(r);
    }
    await this.beginRows(r.columns);
    await this.rows(r.rows);
    await this.endRows();
  }

  /**
   * A result set that arrives in pieces (a cursor): csv, json and ndjson only, written as the rows
   * come, the same text as `result` writes for a whole set.
   */
  async beginRows(columns: string[]): Promise<void> {
    if (this.format === 'table') throw new Error('a table needs the whole result set to size its columns');
    if (this.keys !== null) await this.endRows();
    // a statement without columns (INSERT, CREATE...) prints nothing
    if (columns.length === 0) return;
    if (this.sets++ > 0 && this.format === 'csv') await this.line('');
    this.keys = distinctKeys(columns).map((c) => jsonTerminalSafe(JSON.stringify(c)));
    this.heldJsonRow = null;
    this.jsonRows = 0;
    if (this.format === 'csv') await this.line(columns.map(csvEscape).join(','));
  }

  async rows(rows: SqlValue[][]): Promise<void> {
    const keys = this.keys;
    if (keys === null) return;
    for (const row of rows) {
      if (this.format === 'csv') await this.line(row.map((v) => csvEscape(valueText(v, ''))).join(','));
      else if (this.format === 'ndjson') await this.line(this.object(keys, row));
      else {
        // json: a row is written once the next one shows whether it needs a comma
        await this.line(this.heldJsonRow === null ? '[' : `${this.heldJsonRow},`);
        this.heldJsonRow = this.object(keys, row);
        this.jsonRows++;
      }
    }
  }

  async endRows(): Promise<void> {
    if (this.keys === null) return;
    this.keys = null;
    if (this.format !== 'json') return;
    if (this.heldJsonRow !== null) await this.line(this.heldJsonRow);
    await this.line(this.jsonRows ? ']' : '[]');
    this.heldJsonRow = null;
  }

  async end(): Promise<void> {
    await this.flush();
  }

  private object(keys: string[], row: SqlValue[]): string {
    let s = '{';
    for (let k = 0; k < keys.length; k++) s += `${k ? ',' : ''}${keys[k]}:${jsonTerminalSafe(valueJson(row[k]!))}`;
    return `${s}}`;
  }

  private async table(r: StatementResult): Promise<void> {
    const cell = (v: SqlValue) => terminalSafe(valueText(v).replace(/[\r\n\t]+/g, ' '));
    // display cells, not UTF-16 units: CJK and emoji take two
    const widths = r.columns.map((c) => cellWidth(c));
    for (const row of r.rows) {
      for (let k = 0; k < row.length; k++) {
        const w = cellWidth(cell(row[k]!));
        if (w > widths[k]!) widths[k] = w;
      }
    }
    const line = (vals: string[]) =>
      vals
        .map((v, k) => (k === vals.length - 1 ? v : padCells(v, widths[k]!)))
        .join('  ')
        .trimEnd();
    await this.line(line(r.columns.map(terminalSafe)));
    for (const row of r.rows) await this.line(line(row.map(cell)));
    if (this.human) await this.line(`(${r.rows.length} row${r.rows.length === 1 ? '' : 's'})`);
  }

  private async line(text: string): Promise<void> {
    this.buffer += `${text}\n`;
    if (this.buffer.length >= CHUNK) await this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.buffer) return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.out.write(chunk)) await new Promise<void>((resolve) => this.out.once('drain', () => resolve()));
  }
}
