import { leadingTokens, SqlError, type DatabaseSession, type RunOptions, type RunOutcome, type SqlStatement } from '../api/database/index';
import { CursorUnsupportedError, cursorStatement, type CursorOptions } from '../api/database/cursor';
import type { SqlValue } from '../api/database/values';

/** Where a streamed statement's rows go, as they arrive. */
export interface RowStreamSink {
  beginRows(columns: string[]): Promise<void>;
  rows(rows: SqlValue[][]): Promise<void>;
  endRows(): Promise<void>;
}

export interface StreamingRunOptions extends RunOptions {
  /** Queries outside a transaction go through a cursor into `sink`; without it everything runs on the session. */
  stream?: { target: Omit<CursorOptions, 'signal'>; sink: RowStreamSink };
}

const STREAMABLE = new Set(['SELECT', 'VALUES', 'WITH']);

/** A query that may run on a cursor's own stream: in autocommit it means the same there. */
const streamable = (s: SqlStatement) => STREAMABLE.has((leadingTokens(s.text, 1)[0] ?? '').toUpperCase());

/**
 * Runs statements in order, stopping at the first failure, like `DatabaseSession.run`; but a query
 * run outside a transaction goes through `/v3/cursor` and its rows are written as they arrive, so
 * an export of any size needs neither the server's 10 MB answer limit nor memory for the result.
 * A server without cursors gets everything on the session.
 */
export async function runStreaming(db: DatabaseSession, statements: SqlStatement[], options: StreamingRunOptions): Promise<RunOutcome> {
  const outcome: RunOutcome = { ran: 0, results: [], failed: null };
  let cursors = options.stream !== undefined;
  const viaCursor = (s: SqlStatement) => cursors && streamable(s);
  let i = 0;
  while (i < statements.length && !outcome.failed) {
    if (viaCursor(statements[i]!) && db.status().transaction === null) {
      try {
        await stream(statements[i]!, options);
        outcome.ran++;
        i++;
        continue;
      } catch (error) {
        if (error instanceof CursorUnsupportedError) {
          cursors = false;
          continue;
        }
        if (!(error instanceof SqlError)) throw error;
        outcome.failed = { index: i, error };
        break;
      }
    }
    let j = i + 1;
    while (j < statements.length && !viaCursor(statements[j]!)) j++;
    const base = i;
    const part = await db.run(statements.slice(i, j), { signal: options.signal, onResult: (k, r) => options.onResult?.(base + k, r) });
    outcome.ran += part.ran;
    if (part.failed) outcome.failed = { index: base + part.failed.index, error: part.failed.error };
    i = j;
  }
  return outcome;
}

async function stream(statement: SqlStatement, options: StreamingRunOptions): Promise<void> {
  const { target, sink } = options.stream!;
  let open = false;
  try {
    for await (const ev of cursorStatement({ ...target, signal: options.signal }, statement.text)) {
      if (ev.type === 'begin') {
        await sink.beginRows(ev.columns);
        open = true;
      } else if (ev.type === 'rows') await sink.rows(ev.rows);
    }
  } finally {
    if (open) await sink.endRows();
  }
}
