import { singleStatement, type Connection, type RowSink, type StmtResult } from './engine';
import { StmtError } from './stmt-error';
import type { Cond, EngineStmt, EngineUsage } from './engine-protocol';
import { evalCond, withBusyWait } from './engine-run';
import { encodeValue } from './values';
import { addStatement, noUsage } from './engine-usage';

/*
 * Runs in the engine process: a cursor (Hrana `/v3/cursor`), a batch whose entries are sent to
 * the parent as NDJSON text in chunks while the rows are read. At most a few chunks are in flight:
 * the parent gives a credit back for each one its client has taken, so a slow reader pauses the
 * statement instead of filling memory.
 */

const CHUNK_CHARS = 64 * 1024;
const MAX_IN_FLIGHT = 4;

type HranaError = { message: string; code: string };

/** The receiving end went away: the statement is stopped, the transaction rolled back, nothing more sent. */
class Cancelled extends Error {}

export class CursorWriter {
  private buffer = '';
  private inFlight = 0;
  private wake: (() => void) | null = null;
  cancelled = false;

  constructor(private readonly sendChunk: (text: string) => void) {}

  line(json: string): void {
    this.buffer += `${json}\n`;
    if (this.buffer.length >= CHUNK_CHARS) this.flush();
  }

  flush(): void {
    if (this.buffer === '' || this.cancelled) return;
    this.sendChunk(this.buffer);
    this.buffer = '';
    this.inFlight++;
  }

  full(): boolean {
    return this.cancelled || this.inFlight >= MAX_IN_FLIGHT;
  }

  async drain(): Promise<void> {
    while (!this.cancelled && this.inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.cancelled) throw new Cancelled('the cursor was closed by its reader');
  }

  /** The parent has passed a chunk on. */
  credit(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.wake?.();
    this.wake = null;
  }

  cancel(): void {
    this.cancelled = true;
    this.wake?.();
    this.wake = null;
  }
}

/** A value as sqld writes it, straight to text (a big export encodes millions of them). */
function valueJson(v: unknown): string {
  if (v === null || v === undefined) return '{"type":"null"}';
  if (typeof v === 'bigint') return `{"type":"integer","value":"${v}"}`;
  if (typeof v === 'number') return `{"type":"float","value":${Number.isFinite(v) ? JSON.stringify(v) : 'null'}}`;
  if (typeof v === 'string') return `{"type":"text","value":${JSON.stringify(v)}}`;
  return JSON.stringify(encodeValue(v));
}

function rowEntry(row: unknown[]): string {
  let s = '{"type":"row","row":[';
  for (let i = 0; i < row.length; i++) s += (i ? ',' : '') + valueJson(row[i]);
  return `${s}]}`;
}

const errorOf = (e: StmtError): HranaError => ({ message: e.message, code: e.code });

/**
 * The entries of sqld's cursor: step_begin, row, step_end (its last_insert_rowid a JSON number,
 * as sqld writes it), step_error, error; and, last, sqld's replication_index entry.
 */
export async function runCursor(steps: { condition: Cond | null; stmt: EngineStmt }[], conn: Connection, out: CursorWriter): Promise<EngineUsage> {
  const usage = noUsage();
  try {
    // as a batch: a statement that does not parse fails the whole cursor before any step runs
    await conn.syncSchema().catch(() => undefined);
    for (const step of steps) {
      try {
        const syntax = await conn.syntaxError(singleStatement(step.stmt.sql).sql);
        if (syntax) throw syntax;
      } catch (error) {
        if (!(error instanceof StmtError)) throw error;
        out.line(JSON.stringify({ type: 'error', error: errorOf(error) }));
        return usage;
      }
    }
    const results: (StmtResult | null)[] = [];
    const errors: (HranaError | null)[] = [];
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      results.push(null);
      errors.push(null);
      if (step.condition && !evalCond(step.condition, results, errors, conn)) continue;
      let begun = false;
      const sink: RowSink = {
        begin(cols) {
          // a retry after SQLITE_BUSY begins the step again: announced once
          if (begun) return;
          begun = true;
          out.line(JSON.stringify({ type: 'step_begin', step: i, cols }));
        },
        row: (row) => {
          out.line(rowEntry(row));
        },
        full: () => out.full(),
        drain: () => out.drain(),
      };
      try {
        const result = await withBusyWait(conn, () => conn.execute(step.stmt, undefined, sink));
        if (out.cancelled) throw new Cancelled('the cursor was closed by its reader');
        results[i] = result;
        addStatement(usage, result.rows_read, result.affected_row_count);
        out.line(`{"type":"step_end","affected_row_count":${result.affected_row_count},"last_insert_rowid":${result.last_insert_rowid ?? 'null'}}`);
      } catch (error) {
        if (out.cancelled) throw new Cancelled('the cursor was closed by its reader');
        if (!(error instanceof StmtError)) throw error;
        errors[i] = errorOf(error);
        out.line(JSON.stringify({ type: 'step_error', step: i, error: errors[i] }));
      }
    }
    out.line('{"type":"replication_index","replication_index":null}');
  } catch (error) {
    if (!(error instanceof Cancelled)) throw error;
    // as when a pipeline's client goes away: its transaction is not left holding locks
    if (!conn.autocommit) await conn.execute({ sql: 'ROLLBACK', args: [], namedArgs: [], wantRows: false }).catch(() => undefined);
  } finally {
    out.flush();
  }
  return usage;
}
