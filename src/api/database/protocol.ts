import { decodeValue, ValueError, type SqlValue, type WireValue } from './values';

/** The typed result of one statement. */
export interface StatementResult {
  columns: string[];
  /** Declared column types (`INTEGER`, `TEXT`...), null for expressions. */
  decltypes: (string | null)[];
  rows: SqlValue[][];
  rowsAffected: number;
  /** Set by INSERTs only (as sqld does). */
  lastInsertRowid: bigint | null;
  /** The server's own timing when it reports one, else the round trip. */
  durationMs: number;
}

export interface DescribeInfo {
  params: (string | null)[];
  columns: { name: string; decltype: string | null }[];
  isExplain: boolean;
  isReadonly: boolean;
}

export interface WireError {
  message: string;
  code: string | null;
}

export type RawStmt = { sql?: string; sql_id?: number; args?: WireValue[]; named_args?: { name: string; value: WireValue }[]; want_rows?: boolean };

export type WireRequest =
  | { type: 'execute'; stmt: RawStmt }
  | { type: 'batch'; batch: { steps: { condition?: unknown; stmt: RawStmt }[] } }
  | { type: 'sequence'; sql: string }
  | { type: 'describe'; sql: string }
  | { type: 'get_autocommit' }
  | { type: 'close' };

export type WireResponse =
  | { type: 'execute'; result: StatementResult }
  | { type: 'batch'; stepResults: (StatementResult | null)[]; stepErrors: (WireError | null)[] }
  | { type: 'describe'; result: DescribeInfo }
  | { type: 'get_autocommit'; isAutocommit: boolean }
  | { type: 'sequence' | 'close' | 'store_sql' | 'close_sql' };

export type WireResult = { ok: true; response: WireResponse } | { ok: false; error: WireError };

export interface PipelineAnswer {
  baton: string | null;
  baseUrl: string | null;
  results: WireResult[];
}

export class ProtocolViolation extends Error {}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (what: string): never => {
  throw new ProtocolViolation(what);
};

function decodeError(v: unknown): WireError {
  if (!isObj(v) || typeof v.message !== 'string') return fail('an error without a message');
  return { message: v.message, code: typeof v.code === 'string' ? v.code : null };
}

/** durationMs is NaN when the server reports no timing; the session fills it in. */
function decodeStmtResult(v: unknown): StatementResult {
  if (!isObj(v) || !Array.isArray(v.cols) || !Array.isArray(v.rows)) return fail('a statement result without cols and rows');
  const columns: string[] = [];
  const decltypes: (string | null)[] = [];
  for (const c of v.cols) {
    if (!isObj(c)) fail('a column that is not an object');
    const col = c as Record<string, unknown>;
    columns.push(typeof col.name === 'string' ? col.name : '');
    decltypes.push(typeof col.decltype === 'string' ? col.decltype : null);
  }
  const width = columns.length;
  const rows: SqlValue[][] = new Array(v.rows.length);
  try {
    for (let r = 0; r < v.rows.length; r++) {
      const raw = v.rows[r];
      if (!Array.isArray(raw) || raw.length !== width) fail(`row ${r} does not have ${width} values`);
      const row = new Array<SqlValue>(width);
      for (let k = 0; k < width; k++) row[k] = decodeValue((raw as unknown[])[k]);
      rows[r] = row;
    }
  } catch (error) {
    if (error instanceof ValueError) fail(error.message);
    throw error;
  }
  const affected = v.affected_row_count;
  if (typeof affected !== 'number' || !Number.isInteger(affected) || affected < 0) fail('affected_row_count is not a count');
  const lastId = v.last_insert_rowid;
  let lastInsertRowid: bigint | null = null;
  if (typeof lastId === 'string' && /^-?\d{1,20}$/.test(lastId)) lastInsertRowid = BigInt(lastId);
  else if (typeof lastId === 'number' && Number.isSafeInteger(lastId)) lastInsertRowid = BigInt(lastId);
  else if (lastId !== null && lastId !== undefined) fail('last_insert_rowid is not an integer');
  const timed = typeof v.query_duration_ms === 'number' && Number.isFinite(v.query_duration_ms);
  return { columns, decltypes, rows, rowsAffected: affected as number, lastInsertRowid, durationMs: timed ? (v.query_duration_ms as number) : Number.NaN };
}

function decodeResponse(v: unknown, expected: string): WireResponse {
  if (!isObj(v) || v.type !== expected) return fail(`expected a ${expected} response, got ${isObj(v) ? JSON.stringify(v.type) : 'no object'}`);
  switch (expected) {
    case 'execute':
      return { type: 'execute', result: decodeStmtResult(v.result) };
    case 'batch': {
      const r = v.result;
      if (!isObj(r) || !Array.isArray(r.step_results) || !Array.isArray(r.step_errors)) return fail('a batch result without step_results and step_errors');
      const stepResults = r.step_results.map((s) => (s === null || s === undefined ? null : decodeStmtResult(s)));
      const stepErrors = r.step_errors.map((e) => (e === null || e === undefined ? null : decodeError(e)));
      stepResults.forEach((s, i) => s && stepErrors[i] && fail(`batch step ${i} has both a result and an error`));
      return { type: 'batch', stepResults, stepErrors };
    }
    case 'describe': {
      const r = v.result;
      if (!isObj(r) || !Array.isArray(r.params) || !Array.isArray(r.cols)) return fail('a describe result without params and cols');
      return {
        type: 'describe',
        result: {
          params: r.params.map((p) => (isObj(p) && typeof p.name === 'string' ? p.name : null)),
          columns: r.cols.map((c) => ({
            name: isObj(c) && typeof c.name === 'string' ? c.name : '',
            decltype: isObj(c) && typeof c.decltype === 'string' ? c.decltype : null,
          })),
          isExplain: r.is_explain === true,
          isReadonly: r.is_readonly === true,
        },
      };
    }
    case 'get_autocommit':
      if (typeof v.is_autocommit !== 'boolean') return fail('get_autocommit without is_autocommit');
      return { type: 'get_autocommit', isAutocommit: v.is_autocommit };
    default:
      return { type: expected as 'sequence' | 'close' | 'store_sql' | 'close_sql' };
  }
}

/** Reads a pipeline answer strictly: one result per request, each of the request's type. */
export function decodePipeline(json: unknown, requestTypes: string[]): PipelineAnswer {
  if (!isObj(json)) return fail('the answer is not an object');
  const baton = json.baton;
  if (baton !== null && baton !== undefined && typeof baton !== 'string') fail('baton is not a string');
  const baseUrl = typeof json.base_url === 'string' ? json.base_url : null;
  if (!Array.isArray(json.results)) return fail('the answer has no results');
  if (json.results.length !== requestTypes.length) fail(`expected ${requestTypes.length} results, got ${json.results.length}`);
  const results: WireResult[] = json.results.map((r, i) => {
    if (!isObj(r)) return fail(`result ${i} is not an object`);
    if (r.type === 'ok') return { ok: true, response: decodeResponse(r.response, requestTypes[i]!) };
    if (r.type === 'error') return { ok: false, error: decodeError(r.error) };
    return fail(`result ${i} has type ${JSON.stringify(r.type)}`);
  });
  return { baton: (baton as string | null | undefined) ?? null, baseUrl, results };
}
