import { singleStatement, type Connection, type StmtResult } from './engine';
import { StmtError } from './stmt-error';
import type { Cond, EngineRequest, EngineStmt } from './engine-protocol';

/** Runs in the engine process: one pipeline request that needs SQL, on the stream's connection. */

type HranaError = { message: string; code: string };
export type StreamResult = { type: 'ok'; response: Record<string, unknown> } | { type: 'error'; error: HranaError };

/** How long a writer waits for another stream's write transaction (sqld queues writers too). */
export const BUSY_WAIT_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * sqld queues a writer behind another stream's write transaction instead of failing at once.
 * A long busy_timeout would hold the connection's thread: the wait is done here, between short
 * attempts, so the other stream can commit meanwhile.
 */
export async function withBusyWait<T>(conn: Connection, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  const fresh = conn.autocommit;
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof StmtError) || error.code !== 'SQLITE_BUSY' || !fresh || !conn.autocommit || Date.now() + wait > deadline) throw error;
    }
    await sleep(wait);
  }
}

const errorOf = (e: StmtError): HranaError => ({ message: e.message, code: e.code });

export function evalCond(c: Cond, results: (StmtResult | null)[], errors: (HranaError | null)[], conn: Connection): boolean {
  switch (c.type) {
    case 'ok':
      return results[c.step] != null;
    case 'error':
      return errors[c.step] != null;
    case 'not':
      return !evalCond(c.cond, results, errors, conn);
    case 'and':
      return c.conds.every((x) => evalCond(x, results, errors, conn));
    case 'or':
      return c.conds.some((x) => evalCond(x, results, errors, conn));
    case 'is_autocommit':
      return conn.autocommit;
  }
}

async function runBatch(steps: { condition: Cond | null; stmt: EngineStmt }[], conn: Connection): Promise<StreamResult> {
  // sqld parses the whole batch before it runs a step: a statement that does not parse fails the request
  // (a schema that cannot be read now is read again by each step: a syntax error does not depend on it)
  await conn.syncSchema().catch(() => undefined);
  for (const step of steps) {
    try {
      const parsed = singleStatement(step.stmt.sql);
      const syntax = await conn.syntaxError(parsed.sql);
      if (syntax) throw syntax;
    } catch (error) {
      if (error instanceof StmtError) return { type: 'error', error: errorOf(error) };
      throw error;
    }
  }
  const stepResults: (StmtResult | null)[] = [];
  const stepErrors: (HranaError | null)[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    stepResults.push(null);
    stepErrors.push(null);
    if (step.condition && !evalCond(step.condition, stepResults, stepErrors, conn)) continue;
    try {
      stepResults[i] = await withBusyWait(conn, () => conn.execute(step.stmt));
    } catch (error) {
      if (!(error instanceof StmtError)) throw error;
      stepErrors[i] = errorOf(error);
    }
  }
  return { type: 'ok', response: { type: 'batch', result: { step_results: stepResults, step_errors: stepErrors, replication_index: null } } };
}

/** A StmtError becomes an error result; anything else is the engine's own failure. */
export async function runEngineRequest(req: EngineRequest, conn: Connection): Promise<StreamResult> {
  try {
    switch (req.type) {
      case 'execute':
        return { type: 'ok', response: { type: 'execute', result: await withBusyWait(conn, () => conn.execute(req.stmt)) } };
      case 'batch':
        return await runBatch(req.steps, conn);
      case 'sequence':
        await withBusyWait(conn, () => conn.sequence(req.sql));
        return { type: 'ok', response: { type: 'sequence' } };
      case 'describe':
        return { type: 'ok', response: { type: 'describe', result: await conn.describe(req.sql) } };
    }
  } catch (error) {
    if (error instanceof StmtError) return { type: 'error', error: errorOf(error) };
    throw error;
  }
}
