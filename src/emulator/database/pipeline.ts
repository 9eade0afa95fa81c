import type { Connection, StmtResult, DescribeResult, BoundStmt } from './engine';
import { StmtError, singleStatement } from './engine';
import { decodeValue, ProtocolError, type EngineValue } from './values';
import type { Stream } from './streams';

/** The parsed (not yet executed) requests of one pipeline body. */
type SqlRef = { sql: string | null; sqlId: number | null };
type Stmt = SqlRef & { args: EngineValue[]; namedArgs: { name: string; value: EngineValue }[]; wantRows: boolean };
type Cond =
  | { type: 'ok' | 'error'; step: number }
  | { type: 'not'; cond: Cond }
  | { type: 'and' | 'or'; conds: Cond[] }
  | { type: 'is_autocommit' };
type Request =
  | { type: 'execute'; stmt: Stmt }
  | { type: 'batch'; steps: { condition: Cond | null; stmt: Stmt }[] }
  | ({ type: 'sequence' } & SqlRef)
  | ({ type: 'describe' } & SqlRef)
  | { type: 'store_sql'; sqlId: number; sql: string }
  | { type: 'close_sql'; sqlId: number }
  | { type: 'close' }
  | { type: 'get_autocommit' };

export interface PipelineBody {
  baton: string | null;
  requests: Request[];
}

type HranaError = { message: string; code: string };
export type StreamResult = { type: 'ok'; response: Record<string, unknown> } | { type: 'error'; error: HranaError };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (what: string) => new ProtocolError(`Cannot deserialize client message from JSON: ${what}`);
const MAX_STORED_SQL = 50;
const MAX_SQL_BYTES = 5000;

function int32(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw bad(`${where}: expected a 32-bit integer`);
  return v;
}

function optString(v: unknown, where: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw bad(`${where}: expected a string`);
  return v;
}

function sqlRef(o: Record<string, unknown>, where: string): SqlRef {
  return { sql: optString(o.sql, `${where}.sql`), sqlId: o.sql_id === undefined || o.sql_id === null ? null : int32(o.sql_id, `${where}.sql_id`) };
}

function parseStmt(v: unknown, where: string): Stmt {
  if (!isObj(v)) throw bad(`${where}: expected a statement object`);
  const args = v.args === undefined || v.args === null ? [] : v.args;
  if (!Array.isArray(args)) throw bad(`${where}.args: expected an array`);
  const named = v.named_args === undefined || v.named_args === null ? [] : v.named_args;
  if (!Array.isArray(named)) throw bad(`${where}.named_args: expected an array`);
  if (v.want_rows !== undefined && v.want_rows !== null && typeof v.want_rows !== 'boolean') throw bad(`${where}.want_rows: expected a boolean`);
  return {
    ...sqlRef(v, where),
    args: args.map((a, i) => decodeValue(a, `${where}.args[${i}]`)),
    namedArgs: named.map((a, i) => {
      if (!isObj(a) || typeof a.name !== 'string') throw bad(`${where}.named_args[${i}]: expected {name, value}`);
      return { name: a.name, value: decodeValue(a.value, `${where}.named_args[${i}].value`) };
    }),
    wantRows: v.want_rows !== false,
  };
}

function parseCond(v: unknown, where: string, depth = 0): Cond {
  if (depth > 100) throw bad(`${where}: conditions nested too deeply`);
  if (!isObj(v) || typeof v.type !== 'string') throw bad(`${where}: expected a condition with a "type"`);
  switch (v.type) {
    case 'ok':
    case 'error':
      if (typeof v.step !== 'number' || !Number.isInteger(v.step) || v.step < 0 || v.step >= 2 ** 32) throw bad(`${where}.step: expected an unsigned integer`);
      return { type: v.type, step: v.step };
    case 'not':
      return { type: 'not', cond: parseCond(v.cond, `${where}.cond`, depth + 1) };
    case 'and':
    case 'or':
      if (!Array.isArray(v.conds)) throw bad(`${where}.conds: expected an array`);
      return { type: v.type, conds: v.conds.map((c, i) => parseCond(c, `${where}.conds[${i}]`, depth + 1)) };
    case 'is_autocommit':
      return { type: 'is_autocommit' };
    default:
      throw bad(`${where}: unknown variant \`${v.type.slice(0, 40)}\`, expected one of \`ok\`, \`error\`, \`not\`, \`and\`, \`or\`, \`is_autocommit\``);
  }
}

function parseRequest(v: unknown, i: number): Request {
  const where = `requests[${i}]`;
  if (!isObj(v) || typeof v.type !== 'string') throw bad(`${where}: expected a request with a "type"`);
  switch (v.type) {
    case 'execute':
      return { type: 'execute', stmt: parseStmt(v.stmt, `${where}.stmt`) };
    case 'batch': {
      if (!isObj(v.batch) || !Array.isArray(v.batch.steps)) throw bad(`${where}.batch.steps: expected an array`);
      return {
        type: 'batch',
        steps: v.batch.steps.map((s: unknown, k: number) => {
          if (!isObj(s)) throw bad(`${where}.batch.steps[${k}]: expected an object`);
          return {
            condition: s.condition === undefined || s.condition === null ? null : parseCond(s.condition, `${where}.batch.steps[${k}].condition`),
            stmt: parseStmt(s.stmt, `${where}.batch.steps[${k}].stmt`),
          };
        }),
      };
    }
    case 'sequence':
    case 'describe':
      return { type: v.type, ...sqlRef(v, where) };
    case 'store_sql':
      if (typeof v.sql !== 'string') throw bad(`${where}.sql: expected a string`);
      return { type: 'store_sql', sqlId: int32(v.sql_id, `${where}.sql_id`), sql: v.sql };
    case 'close_sql':
      return { type: 'close_sql', sqlId: int32(v.sql_id, `${where}.sql_id`) };
    case 'close':
    case 'get_autocommit':
      return { type: v.type };
    default:
      throw bad(`${where}: unknown variant \`${v.type.slice(0, 40)}\`, expected one of \`close\`, \`execute\`, \`batch\`, \`sequence\`, \`describe\`, \`store_sql\`, \`close_sql\`, \`get_autocommit\``);
  }
}

/** Checks the whole body before anything runs, as sqld's deserializer does. */
export function parseBody(text: string): PipelineBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw bad((error as Error).message);
  }
  if (!isObj(json)) throw bad('expected an object with "requests"');
  if (!Array.isArray(json.requests)) throw bad('missing field `requests`');
  if (json.baton !== undefined && json.baton !== null && typeof json.baton !== 'string') throw bad('baton: expected a string or null');
  return { baton: (json.baton as string | null | undefined) ?? null, requests: json.requests.map(parseRequest) };
}

export interface ExecContext {
  version: 2 | 3;
  stream: Stream;
  /** The stream's connection, opened on first use. */
  conn(): Connection;
  /** Called by `close`. */
  close(): void;
}

const BUSY_WAIT_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * sqld queues a writer behind another stream's write transaction instead of failing at once.
 * The engine here is synchronous, so a busy_timeout would freeze the whole emulator: the wait is
 * done here, between short attempts, so the other stream can commit meanwhile.
 */
async function withBusyWait<T>(conn: Connection, fn: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  const fresh = conn.autocommit;
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    try {
      return fn();
    } catch (error) {
      if (!(error instanceof StmtError) || error.code !== 'SQLITE_BUSY' || !fresh || !conn.autocommit || Date.now() + wait > deadline) throw error;
    }
    await sleep(wait);
  }
}

function resolveSql(ref: SqlRef, stream: Stream): string {
  if (ref.sql !== null && ref.sqlId !== null) throw new ProtocolError('Received both `sql` and `sql_id`');
  if (ref.sql === null && ref.sqlId === null) throw new ProtocolError('Received neither `sql` nor `sql_id`');
  if (ref.sql !== null) return ref.sql;
  const sql = stream.sqls.get(ref.sqlId!);
  if (sql === undefined) throw new ProtocolError(`SQL text ${ref.sqlId} not found`);
  return sql;
}

const bound = (stmt: Stmt, sql: string): BoundStmt => ({ sql, args: stmt.args, namedArgs: stmt.namedArgs, wantRows: stmt.wantRows });
const errorOf = (e: StmtError): HranaError => ({ message: e.message, code: e.code });

function evalCond(c: Cond, results: (StmtResult | null)[], errors: (HranaError | null)[], conn: () => Connection): boolean {
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
      return conn().autocommit;
  }
}

function checkCond(c: Cond, stepIndex: number, version: 2 | 3): void {
  if (c.type === 'ok' || c.type === 'error') {
    if (c.step >= stepIndex) throw new ProtocolError(`Batch condition of step ${stepIndex} refers to step ${c.step}, which is not an earlier step`);
  } else if (c.type === 'not') checkCond(c.cond, stepIndex, version);
  else if (c.type === 'and' || c.type === 'or') for (const x of c.conds) checkCond(x, stepIndex, version);
  else if (version < 3) throw new ProtocolError('The `is_autocommit` batch condition is only supported in protocol version hrana3 and higher');
}

async function runBatch(req: Extract<Request, { type: 'batch' }>, ctx: ExecContext): Promise<StreamResult> {
  const sqls = req.steps.map((s) => resolveSql(s.stmt, ctx.stream));
  req.steps.forEach((s, i) => s.condition && checkCond(s.condition, i, ctx.version));
  // sqld parses the whole batch before it runs a step: a statement that does not parse fails the request
  for (const sql of sqls) {
    try {
      const parsed = singleStatement(sql);
      const syntax = ctx.conn().syntaxError(parsed.sql);
      if (syntax) throw syntax;
    } catch (error) {
      if (error instanceof StmtError) return { type: 'error', error: errorOf(error) };
      throw error;
    }
  }
  const stepResults: (StmtResult | null)[] = [];
  const stepErrors: (HranaError | null)[] = [];
  for (let i = 0; i < req.steps.length; i++) {
    const step = req.steps[i]!;
    stepResults.push(null);
    stepErrors.push(null);
    if (step.condition && !evalCond(step.condition, stepResults, stepErrors, ctx.conn)) continue;
    const conn = ctx.conn();
    try {
      stepResults[i] = await withBusyWait(conn, () => conn.execute(bound(step.stmt, sqls[i]!)));
    } catch (error) {
      if (!(error instanceof StmtError)) throw error;
      stepErrors[i] = errorOf(error);
    }
  }
  return { type: 'ok', response: { type: 'batch', result: { step_results: stepResults, step_errors: stepErrors, replication_index: null } } };
}

/** Runs one request; a StmtError becomes an error result, a ProtocolError fails the pipeline. */
export async function runRequest(req: Request, ctx: ExecContext): Promise<StreamResult> {
  const { stream } = ctx;
  if (stream.closed && req.type !== 'close') throw new ProtocolError('Stream for this baton was closed');
  try {
    switch (req.type) {
      case 'execute': {
        const sql = resolveSql(req.stmt, stream);
        const conn = ctx.conn();
        const result = await withBusyWait(conn, () => conn.execute(bound(req.stmt, sql)));
        return { type: 'ok', response: { type: 'execute', result } };
      }
      case 'batch':
        return await runBatch(req, ctx);
      case 'sequence': {
        const sql = resolveSql(req, stream);
        const conn = ctx.conn();
        await withBusyWait(conn, () => conn.sequence(sql));
        return { type: 'ok', response: { type: 'sequence' } };
      }
      case 'describe': {
        const sql = resolveSql(req, stream);
        const result: DescribeResult = ctx.conn().describe(sql);
        return { type: 'ok', response: { type: 'describe', result } };
      }
      case 'store_sql': {
        if (stream.sqls.has(req.sqlId)) throw new ProtocolError(`SQL text ${req.sqlId} already exists`);
        if (stream.sqls.size >= MAX_STORED_SQL) throw new StmtError(`Too many stored SQL texts: the limit is ${MAX_STORED_SQL} per stream`, 'SQL_STORE_TOO_MANY');
        if (Buffer.byteLength(req.sql) > MAX_SQL_BYTES) throw new StmtError(`SQL text is too large: the limit is ${MAX_SQL_BYTES} bytes`, 'SQL_STORE_TOO_LARGE');
        stream.sqls.set(req.sqlId, req.sql);
        return { type: 'ok', response: { type: 'store_sql' } };
      }
      case 'close_sql':
        stream.sqls.delete(req.sqlId);
        return { type: 'ok', response: { type: 'close_sql' } };
      case 'close':
        ctx.close();
        return { type: 'ok', response: { type: 'close' } };
      case 'get_autocommit':
        if (ctx.version < 3) throw new ProtocolError('The `get_autocommit` request is only supported in protocol version hrana3 and higher');
        return { type: 'ok', response: { type: 'get_autocommit', is_autocommit: stream.conn ? stream.conn.autocommit : true } };
    }
  } catch (error) {
    if (error instanceof StmtError) return { type: 'error', error: errorOf(error) };
    throw error;
  }
}
