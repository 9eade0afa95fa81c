import type { Cond, EngineRequest, EngineStmt } from './engine-protocol';
import { decodeValue, ProtocolError, type EngineValue } from './values';
import type { Stream } from './streams';

/*
 * The emulator side of a pipeline: the body is parsed and checked here, stored SQL and stream
 * state live here; every request that runs SQL goes to the engine process with its SQL resolved.
 */

/** The parsed (not yet executed) requests of one pipeline body. */
type SqlRef = { sql: string | null; sqlId: number | null };
type Stmt = SqlRef & { args: EngineValue[]; namedArgs: { name: string; value: EngineValue }[]; wantRows: boolean };
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

function parseSteps(v: unknown, where: string): { condition: Cond | null; stmt: Stmt }[] {
  if (!isObj(v) || !Array.isArray(v.steps)) throw bad(`${where}.steps: expected an array`);
  return v.steps.map((s: unknown, k: number) => {
    if (!isObj(s)) throw bad(`${where}.steps[${k}]: expected an object`);
    return {
      condition: s.condition === undefined || s.condition === null ? null : parseCond(s.condition, `${where}.steps[${k}].condition`),
      stmt: parseStmt(s.stmt, `${where}.steps[${k}].stmt`),
    };
  });
}

function parseRequest(v: unknown, i: number): Request {
  const where = `requests[${i}]`;
  if (!isObj(v) || typeof v.type !== 'string') throw bad(`${where}: expected a request with a "type"`);
  switch (v.type) {
    case 'execute':
      return { type: 'execute', stmt: parseStmt(v.stmt, `${where}.stmt`) };
    case 'batch':
      return { type: 'batch', steps: parseSteps(v.batch, `${where}.batch`) };
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
      throw bad(
        `${where}: unknown variant \`${v.type.slice(0, 40)}\`, expected one of \`close\`, \`execute\`, \`batch\`, \`sequence\`, \`describe\`, \`store_sql\`, \`close_sql\`, \`get_autocommit\``,
      );
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
  /** Runs a request on the stream's connection in the engine; resolves to the result's JSON text. */
  engine(request: EngineRequest): Promise<string>;
  /** Called by `close`. */
  close(): void;
}

function resolveSql(ref: SqlRef, stream: Stream): string {
  return resolveStoredSql(ref, stream.sqls);
}

/** The text of a statement: given inline or stored earlier (sqld resolves `sql_id` when the request arrives). */
export function resolveStoredSql(ref: SqlRef, sqls: ReadonlyMap<number, string>): string {
  if (ref.sql !== null && ref.sqlId !== null) throw new ProtocolError('Received both `sql` and `sql_id`');
  if (ref.sql === null && ref.sqlId === null) throw new ProtocolError('Received neither `sql` nor `sql_id`');
  if (ref.sql !== null) return ref.sql;
  const sql = sqls.get(ref.sqlId!);
  if (sql === undefined) throw new ProtocolError(`SQL text ${ref.sqlId} not found`);
  return sql;
}

const bound = (stmt: Stmt, sql: string): EngineStmt => ({ sql, args: stmt.args, namedArgs: stmt.namedArgs, wantRows: stmt.wantRows });
const ok = (response: Record<string, unknown>) => JSON.stringify({ type: 'ok', response });
const stmtError = (message: string, code: string) => JSON.stringify({ type: 'error', error: { message, code } });

/** Batch steps (Hrana over WebSocket and cursors) with their SQL resolved against `sqls`. */
export function parseBatchSteps(v: unknown, where: string, sqls: ReadonlyMap<number, string>): { condition: Cond | null; stmt: EngineStmt }[] {
  return parseSteps(v, where).map((s) => ({ condition: s.condition, stmt: bound(s.stmt, resolveStoredSql(s.stmt, sqls)) }));
}

/** One statement with its SQL resolved against `sqls`. */
export function parseStmtJson(v: unknown, where: string, sqls: ReadonlyMap<number, string>): EngineStmt {
  const stmt = parseStmt(v, where);
  return bound(stmt, resolveStoredSql(stmt, sqls));
}

/** Every condition refers to an earlier step, and `is_autocommit` only on v3. */
export function checkBatchConditions(steps: { condition: Cond | null }[], version: 2 | 3): void {
  steps.forEach((s, i) => s.condition && checkCond(s.condition, i, version));
}

function checkCond(c: Cond, stepIndex: number, version: 2 | 3): void {
  if (c.type === 'ok' || c.type === 'error') {
    if (c.step >= stepIndex) throw new ProtocolError(`Batch condition of step ${stepIndex} refers to step ${c.step}, which is not an earlier step`);
  } else if (c.type === 'not') checkCond(c.cond, stepIndex, version);
  else if (c.type === 'and' || c.type === 'or') for (const x of c.conds) checkCond(x, stepIndex, version);
  else if (version < 3) throw new ProtocolError('The `is_autocommit` batch condition is only supported in protocol version hrana3 and higher');
}

/** Runs one request; resolves to its result as JSON text. A ProtocolError fails the pipeline. */
export async function runRequest(req: Request, ctx: ExecContext): Promise<string> {
  const { stream } = ctx;
  if (stream.closed && req.type !== 'close') throw new ProtocolError('Stream for this baton was closed');
  switch (req.type) {
    case 'execute':
      return ctx.engine({ type: 'execute', stmt: bound(req.stmt, resolveSql(req.stmt, stream)) });
    case 'batch': {
      const steps = req.steps.map((s) => ({ condition: s.condition, stmt: bound(s.stmt, resolveSql(s.stmt, stream)) }));
      req.steps.forEach((s, i) => s.condition && checkCond(s.condition, i, ctx.version));
      return ctx.engine({ type: 'batch', steps });
    }
    case 'sequence':
      return ctx.engine({ type: 'sequence', sql: resolveSql(req, stream) });
    case 'describe':
      return ctx.engine({ type: 'describe', sql: resolveSql(req, stream) });
    case 'store_sql':
      if (stream.sqls.has(req.sqlId)) throw new ProtocolError(`SQL text ${req.sqlId} already exists`);
      if (stream.sqls.size >= MAX_STORED_SQL) return stmtError(`Too many stored SQL texts: the limit is ${MAX_STORED_SQL} per stream`, 'SQL_STORE_TOO_MANY');
      if (Buffer.byteLength(req.sql) > MAX_SQL_BYTES) return stmtError(`SQL text is too large: the limit is ${MAX_SQL_BYTES} bytes`, 'SQL_STORE_TOO_LARGE');
      stream.sqls.set(req.sqlId, req.sql);
      return ok({ type: 'store_sql' });
    case 'close_sql':
      stream.sqls.delete(req.sqlId);
      return ok({ type: 'close_sql' });
    case 'close':
      ctx.close();
      return ok({ type: 'close' });
    case 'get_autocommit':
      if (ctx.version < 3) throw new ProtocolError('The `get_autocommit` request is only supported in protocol version hrana3 and higher');
      return ok({ type: 'get_autocommit', is_autocommit: stream.autocommit });
  }
}
