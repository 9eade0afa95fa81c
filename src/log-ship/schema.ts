import { LOG_FIELDS, type ClickHouseKind, type LogFieldDef, type StoreKey } from '../log-fields/fields';
import { sqlIdentifier, sqlLiteral } from './sql-text';

/**
 * The table's layout, derived from LOG_FIELDS. Two forms, picked from the server's version:
 * - `current` (ClickHouse 20.1 and later): timestamp DateTime64(3, 'UTC'), LowCardinality strings;
 * - `legacy` (older servers, Debian's 18.16): no DateTime64 and no LowCardinality without a flag,
 *   so timestamp is DateTime('UTC') (seconds) beside timestampMs UInt16 (the milliseconds).
 */
export type TableForm = 'legacy' | 'current';

/** The extra column of the legacy form: the milliseconds of the timestamp (0-999). */
export const MS_COLUMN = 'timestampMs';

/** `SELECT version()` -> the form that server gets. */
export function formForVersion(version: string): TableForm {
  const major = Number(/^(\d+)/.exec(version.trim())?.[1] ?? NaN);
  return Number.isFinite(major) && major >= 20 ? 'current' : 'legacy';
}

function baseType(kind: ClickHouseKind, form: TableForm): string {
  switch (kind) {
    case 'time-ms':
      return form === 'current' ? "DateTime64(3, 'UTC')" : "DateTime('UTC')";
    case 'LowString':
      return 'String';
    default:
      return kind;
  }
}

/** The ClickHouse type of a field's column in a form. */
export function columnType(field: Pick<LogFieldDef, 'clickhouse' | 'required' | 'storeKey'>, form: TableForm): string {
  const base = baseType(field.clickhouse, form);
  // the sorting key takes no Nullable: a record without a request id stores ''
  const nullable = !field.required && field.storeKey === null;
  const inner = nullable ? `Nullable(${base})` : base;
  return field.clickhouse === 'LowString' && form === 'current' ? `LowCardinality(${inner})` : inner;
}

type KeyField = Extract<(typeof LOG_FIELDS)[number], { storeKey: StoreKey }>;

/** The sorting key's parts in its order. */
const KEY_ORDER: readonly StoreKey[] = ['zone', 'time', 'id'];

/** The sorting key's fields in order (the field table's `storeKey`): the records table's, the rejected table's first columns. */
const KEY_FIELDS: readonly KeyField[] = KEY_ORDER.map((key) => {
  const field = LOG_FIELDS.find((f): f is KeyField => f.storeKey === key);
  if (!field) throw new Error(`no field of the table is the store's ${key} key`);
  return field;
});

/** The column of a part of the sorting key (the zone's shards a cluster; the time's partitions by day). */
export function keyColumn(key: StoreKey): string {
  return KEY_FIELDS[KEY_ORDER.indexOf(key)]!.name;
}

const SORTING_KEY = `ORDER BY (${KEY_FIELDS.map((f) => f.name).join(', ')})`;
const DAY_PARTITIONS = `PARTITION BY toYYYYMMDD(${keyColumn('time')})`;

export interface Column {
  name: string;
  type: string;
  doc: string;
}

/** The table's columns in order (the platform's fields, plus timestampMs in the legacy form). */
export function tableColumns(form: TableForm): Column[] {
  const out: Column[] = [];
  for (const f of LOG_FIELDS) {
    out.push({ name: f.name, type: columnType(f, form), doc: f.doc });
    if (f.clickhouse === 'time-ms' && form === 'legacy') out.push({ name: MS_COLUMN, type: 'UInt16', doc: `milliseconds of ${f.name} (0-999)` });
  }
  return out;
}

export interface TableNames {
  database: string;
  /** The table queried and inserted into (the Distributed one with a cluster). */
  table: string;
  cluster: string | null;
}

const q = (db: string, t: string) => `${sqlIdentifier(db)}.${sqlIdentifier(t)}`;

/** The table that holds the records on a node: the table itself, or `<table>_local` under a cluster. */
export function localTableName(names: TableNames): string {
  return names.cluster ? `${names.table}_local` : names.table;
}

/** The shipper's own state beside the records: checkpoints and leases, one row per write. */
export function stateTableName(names: TableNames): string {
  return `${names.table}_ship`;
}

/** Records ClickHouse refused (a data error: a value it cannot parse into its column), put aside. */
export function rejectedTableName(names: TableNames): string {
  return `${names.table}_rejected`;
}

/**
 * CREATE TABLE of the records put aside: the line as it was sent, and the server's error. Time
 * in seconds in both forms (it is only looked up by range, to skip what was put aside before).
 * On the node the shipper talks to, also under a cluster: it is small.
 */
export function rejectedTableSql(names: TableNames): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${q(names.database, rejectedTableName(names))}\n(\n` +
    KEY_FIELDS.map((f) => `  ${f.name} ${columnType(f, 'legacy')},\n`).join('') +
    "  line String COMMENT 'the JSONEachRow line ClickHouse refused',\n" +
    "  error String COMMENT 'what ClickHouse said',\n" +
    "  rejectedAt DateTime('UTC')\n" +
    `)\nENGINE = MergeTree\n${DAY_PARTITIONS}\n${SORTING_KEY}`
  );
}

/** A row of the rejected table (a JSONEachRow line): the record's key (its time in seconds), the line as sent, the server's error. */
export function rejectedRowLine(r: { zone: number; timeMs: number; id: string; line: string; error: string }, rejectedAt: number): string {
  const key: Record<StoreKey, number | string> = { zone: r.zone, time: Math.floor(r.timeMs / 1000), id: r.id };
  const row = Object.fromEntries(KEY_FIELDS.map((f) => [f.name, key[f.storeKey]]));
  return `${JSON.stringify({ ...row, line: r.line, error: r.error, rejectedAt })}\n`;
}

/** CREATE TABLE for the records (on one node; under a cluster this is the local table). */
export function recordsTableSql(names: TableNames, form: TableForm): string {
  const cols = tableColumns(form)
    .map((c) => `  ${sqlIdentifier(c.name)} ${c.type} COMMENT ${sqlLiteral(c.doc)}`)
    .join(',\n');
  return `CREATE TABLE IF NOT EXISTS ${q(names.database, localTableName(names))}\n(\n${cols}\n)\nENGINE = MergeTree\n${DAY_PARTITIONS}\n${SORTING_KEY}`;
}

/** CREATE TABLE of the Distributed table over every node's local table, sharded by zone. */
export function distributedTableSql(names: TableNames, form: TableForm): string {
  if (!names.cluster) throw new Error('a Distributed table needs a cluster');
  const cols = tableColumns(form)
    .map((c) => `  ${sqlIdentifier(c.name)} ${c.type}`)
    .join(',\n');
  return (
    `CREATE TABLE IF NOT EXISTS ${q(names.database, names.table)}\n(\n${cols}\n)\n` +
    `ENGINE = Distributed(${sqlIdentifier(names.cluster)}, ${sqlIdentifier(names.database)}, ${sqlIdentifier(localTableName(names))}, ${keyColumn('zone')})`
  );
}

/** CREATE TABLE of the shipper's state (checkpoints and leases); the newest row of a (zone, kind) counts. */
export function stateTableSql(names: TableNames): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${q(names.database, stateTableName(names))}\n(\n` +
    `  ${keyColumn('zone')} UInt32,\n` +
    "  kind String COMMENT 'checkpoint or lease',\n" +
    "  value UInt64 COMMENT 'checkpoint: every record before this epoch ms is stored; lease: expiry, epoch ms',\n" +
    "  owner String COMMENT 'host:pid:run id of the shipper that wrote it',\n" +
    '  host String,\n' +
    '  pid UInt32,\n' +
    '  writtenMs UInt64\n' +
    `)\nENGINE = ReplacingMergeTree(writtenMs)\nORDER BY (${keyColumn('zone')}, kind)`
  );
}

/** `db`.`table` */
export function qualified(database: string, table: string): string {
  return q(database, table);
}
