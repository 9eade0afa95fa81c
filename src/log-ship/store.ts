import { Readable } from 'node:stream';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import {
  formForVersion,
  distributedTableSql,
  keyColumn,
  localTableName,
  qualified,
  recordsTableSql,
  rejectedRowLine,
  rejectedTableName,
  rejectedTableSql,
  stateTableName,
  stateTableSql,
  type TableForm,
  type TableNames,
} from './schema';
import { sqlIdentifier, sqlLiteral } from './sql-text';
import { parseStoreUrl, storeConnection, type StoreUrl } from '../config/store-url';

/**
 * ClickHouse error codes that say the data is wrong, not the server: a value it cannot parse
 * into its column (CANNOT_PARSE_*, TYPE_MISMATCH, TOO_LARGE_STRING_SIZE, INCORRECT_DATA...).
 * The same rows fail again however often they are sent; anything else is retried.
 */
const DATA_ERRORS = new Set([6, 25, 26, 27, 32, 33, 38, 41, 53, 69, 70, 72, 117, 130, 131, 321, 349]);

/** A failure talking to ClickHouse (down, refusing, or an error answer). */
export class StoreError extends Error {
  constructor(
    message: string,
    /** `data`: ClickHouse refused the rows themselves; `transient`: anything else (retried). */
    readonly kind: 'transient' | 'data' = 'transient',
    /** For a data error: the row (1-based) the server named, when it did. */
    readonly row: number | null = null,
  ) {
    super(message);
  }
}

/** The StoreError for a ClickHouse answer: its code (`Code: 27, ...`) tells a data error. */
export function storeErrorOf(what: string, message: string): StoreError {
  const text = `${what}: ${message.split('\n')[0]}`;
  const code = Number(/\bCode: (\d+)/.exec(message)?.[1] ?? NaN);
  if (!DATA_ERRORS.has(code)) return new StoreError(text);
  const row = Number(/\(at row (\d+)\)/.exec(message)?.[1] ?? NaN);
  return new StoreError(text, 'data', Number.isSafeInteger(row) && row > 0 ? row : null);
}

/** The state table's zone column (as the records table's). */
const ZONE_COLUMN = keyColumn('zone');

/** A record put aside: ClickHouse refused it. */
export interface RejectedRow {
  zone: number;
  timeMs: number;
  /** Its request id. */
  id: string;
  line: string;
  error: string;
}

export interface StoreOptions {
  url: StoreUrl;
  password: string;
  table: string;
  cluster: string | null;
  /** Per request (an insert of a segment included). */
  timeoutMs?: number;
}

/** A checkpoint or lease row of the state table. */
export interface StateRow {
  value: number;
  owner: string;
  host: string;
  pid: number;
  writtenMs: number;
}

/**
 * The log store: one ClickHouse server (or a cluster through one of its nodes) over its HTTP
 * interface with the official client. Statements carry no record values: records go in as
 * JSONEachRow bodies; the few literals are written by sqlLiteral.
 */
export class LogStore {
  readonly names: TableNames;
  form: TableForm = 'legacy';
  version = '';
  private readonly client: ClickHouseClient;
  private readonly records: string;
  private readonly state: string;
  private readonly rejected: string;

  constructor(private readonly options: StoreOptions) {
    this.names = { database: options.url.database, table: options.table, cluster: options.cluster };
    this.client = this.clientFor(options.url.host);
    this.records = qualified(this.names.database, this.names.table);
    this.state = qualified(this.names.database, stateTableName(this.names));
    this.rejected = qualified(this.names.database, rejectedTableName(this.names));
  }

  private clientFor(host: string): ClickHouseClient {
    return createClient({
      ...storeConnection(this.options.url, this.options.password, host),
      request_timeout: this.options.timeoutMs ?? 60_000,
      compression: { request: false, response: false },
      max_open_connections: 8,
      // failures are this module's to report (as StoreError, once, in the shipper's own lines)
      log: { level: ClickHouseLogLevel.OFF },
    });
  }

  private async run<T>(what: string, f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw storeErrorOf(what, message);
    }
  }

  async rows<T>(sql: string, signal?: AbortSignal): Promise<T[]> {
    return this.run('ClickHouse query', async () => {
      const rs = await this.client.query({ query: sql, format: 'JSONEachRow', abort_signal: signal });
      return (await rs.json()) as T[];
    });
  }

  async command(sql: string, client = this.client): Promise<void> {
    await this.run('ClickHouse statement', () => client.command({ query: sql }).then(() => undefined));
  }

  /** Reads the server's version (and so the table's form); creates the tables when missing. */
  async prepare(): Promise<void> {
    // round trips at once where nothing orders them: a shipper starts reading when they are done
    const [[row], existing] = await Promise.all([
      this.rows<{ v: string }>('SELECT version() AS v'),
      this.rows<{ type: string }>(
        `SELECT type FROM system.columns WHERE database = ${sqlLiteral(this.names.database)} AND table = ${sqlLiteral(localTableName(this.names))} AND name = ${sqlLiteral(keyColumn('time'))}`,
      ),
    ]);
    this.version = row?.v ?? '';
    this.form = formForVersion(this.version);
    // a table made by an older server keeps its form after an upgrade
    if (existing[0]) this.form = existing[0].type.startsWith('DateTime64') ? 'current' : 'legacy';
    await this.command(`CREATE DATABASE IF NOT EXISTS ${sqlIdentifier(this.names.database)}`);
    if (this.names.cluster) {
      for (const host of await this.clusterHosts()) {
        const node = this.clientFor(host);
        try {
          await this.command(`CREATE DATABASE IF NOT EXISTS ${sqlIdentifier(this.names.database)}`, node);
          await this.command(recordsTableSql(this.names, this.form), node);
        } finally {
          await node.close();
        }
      }
      await this.command(distributedTableSql(this.names, this.form));
      await Promise.all([this.command(stateTableSql(this.names)), this.command(rejectedTableSql(this.names))]);
    } else {
      await Promise.all([
        this.command(recordsTableSql(this.names, this.form)),
        this.command(stateTableSql(this.names)),
        this.command(rejectedTableSql(this.names)),
      ]);
    }
  }

  /** Every node of the cluster (each is reached on the store URL's HTTP port). */
  async clusterHosts(): Promise<string[]> {
    const rows = await this.rows<{ h: string }>(
      `SELECT DISTINCT host_address AS h FROM system.clusters WHERE cluster = ${sqlLiteral(this.names.cluster ?? '')}`,
    );
    if (rows.length === 0) throw new StoreError(`the server knows no cluster "${this.names.cluster}" (system.clusters)`);
    return rows.map((r) => r.h);
  }

  /** Stores JSONEachRow lines (in one or more pieces, each whole lines); resolves when ClickHouse acknowledged them. */
  async insert(lines: Buffer | readonly Buffer[], signal?: AbortSignal): Promise<void> {
    await this.run('ClickHouse insert', () =>
      this.insertLines(this.records, lines, signal, {
        input_format_skip_unknown_fields: 1,
        // a Distributed table acknowledges only once every shard has the rows
        ...(this.names.cluster ? { insert_distributed_sync: 1 } : {}),
      }),
    );
  }

  /** The bytes as they are (the client would encode objects again: JSON formats want object streams). */
  private async insertLines(
    table: string,
    lines: Buffer | readonly Buffer[],
    signal: AbortSignal | undefined,
    settings: Record<string, number>,
  ): Promise<void> {
    const result = await this.client.exec({
      query: `INSERT INTO ${table} FORMAT JSONEachRow`,
      values: Readable.from(Buffer.isBuffer(lines) ? [lines] : lines, { objectMode: false }),
      abort_signal: signal,
      clickhouse_settings: settings,
    });
    // the answer is empty; read it so the connection goes back to the pool
    for await (const chunk of result.stream) void chunk;
  }

  /** The request ids stored (or put aside as rejected) for a zone with timestamps in [fromMs, toMs] (whole seconds around it). */
  async storedIds(zone: number, fromMs: number, toMs: number): Promise<Set<string>> {
    const where = `WHERE pullZoneId = ${sqlLiteral(zone)} AND ${this.timeRange(fromMs, toMs)}`;
    const rows = await this.rows<{ r: string }>(
      `SELECT requestId AS r FROM ${this.records} ${where} UNION ALL SELECT requestId AS r FROM ${this.rejected} ${where}`,
    );
    return new Set(rows.map((x) => x.r));
  }

  /** Newest stored (or rejected) record time of a zone (epoch ms), or null. */
  async newestStored(zone: number): Promise<number | null> {
    const ms = this.form === 'current' ? 'toUnixTimestamp64Milli(max(timestamp))' : 'max(toUInt64(timestamp) * 1000 + timestampMs)';
    const [[row], [rej]] = await Promise.all([
      this.rows<{ t: string; n: string }>(`SELECT ${ms} AS t, count() AS n FROM ${this.records} WHERE pullZoneId = ${sqlLiteral(zone)}`),
      this.rows<{ t: string; n: string }>(
        `SELECT max(toUInt64(timestamp)) * 1000 + 999 AS t, count() AS n FROM ${this.rejected} WHERE pullZoneId = ${sqlLiteral(zone)}`,
      ),
    ]);
    const stored = row && Number(row.n) > 0 ? Number(row.t) : null;
    const rejected = rej && Number(rej.n) > 0 ? Number(rej.t) : null;
    return stored === null ? rejected : rejected === null ? stored : Math.max(stored, rejected);
  }

  /** `db`.`<table>_rejected`, where refused records are put aside. */
  get rejectedTable(): string {
    return `${this.names.database}.${rejectedTableName(this.names)}`;
  }

  /** Puts records ClickHouse refused into the rejected table. */
  async insertRejected(rows: readonly RejectedRow[]): Promise<void> {
    const at = Math.floor(Date.now() / 1000);
    const lines = rows.map((r) => rejectedRowLine(r, at));
    await this.run('ClickHouse insert of rejected records', () => this.insertLines(this.rejected, Buffer.from(lines.join('')), undefined, {}));
  }

  /** How many records of a zone were put aside, with times in [fromMs, toMs) (whole seconds). */
  async rejectedCount(zone: number, fromMs: number, toMs: number): Promise<number> {
    const [row] = await this.rows<{ c: string }>(
      `SELECT count() AS c FROM ${this.rejected} WHERE pullZoneId = ${sqlLiteral(zone)} AND timestamp >= toDateTime(${sqlLiteral(Math.floor(fromMs / 1000))}) AND timestamp < toDateTime(${sqlLiteral(Math.ceil(toMs / 1000))})`,
    );
    return Number(row?.c ?? 0);
  }

  private timeRange(fromMs: number, toMs: number): string {
    const a = sqlLiteral(Math.floor(fromMs / 1000));
    const b = sqlLiteral(Math.floor(toMs / 1000));
    return `timestamp >= toDateTime(${a}) AND timestamp <= toDateTime(${b})`;
  }

  /** count() and uniqExact(requestId) of a zone's records in [fromMs, toMs). */
  async counts(zone: number, fromMs: number, toMs: number): Promise<{ count: number; unique: number }> {
    const ms = this.form === 'current' ? 'toUnixTimestamp64Milli(timestamp)' : '(toUInt64(timestamp) * 1000 + timestampMs)';
    const [row] = await this.rows<{ c: string; u: string }>(
      `SELECT count() AS c, uniqExact(requestId) AS u FROM ${this.records} WHERE pullZoneId = ${sqlLiteral(zone)} AND ${ms} >= ${sqlLiteral(fromMs)} AND ${ms} < ${sqlLiteral(toMs)}`,
    );
    return { count: Number(row?.c ?? 0), unique: Number(row?.u ?? 0) };
  }

  /** The newest row of a zone's checkpoint or lease. */
  async readState(zone: number, kind: string): Promise<StateRow | null> {
    const [row] = await this.rows<{ v: string; o: string; h: string; p: number; w: string }>(
      `SELECT argMax(value, writtenMs) AS v, argMax(owner, writtenMs) AS o, argMax(host, writtenMs) AS h, argMax(pid, writtenMs) AS p, max(writtenMs) AS w ` +
        `FROM ${this.state} WHERE pullZoneId = ${sqlLiteral(zone)} AND kind = ${sqlLiteral(kind)} HAVING count() > 0`,
    );
    return row ? { value: Number(row.v), owner: row.o, host: row.h, pid: Number(row.p), writtenMs: Number(row.w) } : null;
  }

  async writeState(zone: number, kind: string, row: StateRow): Promise<void> {
    const line = JSON.stringify({ [ZONE_COLUMN]: zone, kind, value: row.value, owner: row.owner, host: row.host, pid: row.pid, writtenMs: row.writtenMs });
    await this.run('ClickHouse state write', async () => {
      await this.insertLines(this.state, Buffer.from(`${line}\n`), undefined, {});
    });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** The store named by a clickhouse:// text (a StoreUrlError when it is not one), on one node. */
export function openLogStore(text: string, password: string, table: string): LogStore {
  return new LogStore({ url: parseStoreUrl(text), password, table, cluster: null });
}
