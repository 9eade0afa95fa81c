/**
 * Every field of a CDN log record, declared once. The platform's logging API v2 sends these
 * (LogEntry); everything that lists fields (the answer's check, the page codec and its worker,
 * the columnar store, filters and alert rules, the SQL tables of DuckDB and ClickHouse, exports,
 * the detail view) derives its list from this table instead of spelling the fields again.
 *
 * Order is the platform's order of fields in a record, and the export's column order.
 */

/** How the columnar store keeps a field's values. */
export type FieldStorage =
  /** epoch milliseconds (the record's time) */
  | 'time'
  /** a number kept as a 32-bit value (bigger ones aside) */
  | 'number'
  /** a text with few distinct values, kept once in a dictionary */
  | 'dictionary'
  /** a 32-hex-digit id kept as 16 bytes */
  | 'id'
  /** an IPv4 or IPv6 address kept as bytes */
  | 'address'
  /** a text kept as is (rare or secret values) */
  | 'text'
  /** derived from other fields when it can be (url = scheme://host + path) */
  | 'derived';

/** ClickHouse column type of a field, before the server's version picks the concrete form. */
export type ClickHouseKind = 'time-ms' | 'UInt64' | 'UInt32' | 'UInt16' | 'String' | 'LowString';

/**
 * A field's part in the log store's sorting key (ClickHouse `ORDER BY (zone, time, id)`): what a
 * record is looked up, deduplicated and sharded by. The key's columns take no Nullable.
 */
export type StoreKey = 'zone' | 'time' | 'id';

/** How a server filter matches its field (the platform's semantics, also applied locally). */
export type FilterMatch =
  /** codes and classes, ORed: 5xx,404 */
  | 'status'
  /** one of several values, comma separated, any case */
  | 'list'
  /** one value, any case */
  | 'exact'
  /** a substring, any case */
  | 'contains';

/** A filter of the v2 logging API on one field: its query parameter, its CLI flag, its line in the filter form. */
export interface ServerFilterDef {
  /** The v2 query parameter, and the LogFilter key. */
  readonly param: string;
  readonly match: FilterMatch;
  /** Its place among the filters: the filter form's order, the query string's, the title line's. */
  readonly order: number;
  /** `burrow logs --FLAG`, if it has one (its help text is written in commands/logs.ts). */
  readonly flag: string | null;
  /** The filter form's label and hint, and its key in the title line (`cache=MISS`). */
  readonly form: { readonly label: string; readonly hint: string; readonly short: string } | null;
  /** A valid value as given (any case): a pattern, the allowed values (upper case), or an IP address; null: any. */
  readonly valid: RegExp | readonly string[] | 'ip' | null;
  /** What a valid value is, for the message `"x" is not …`. */
  readonly invalid: string;
  /** The case the value is sent and compared in. */
  readonly case: 'upper' | 'lower' | 'as is';
}

/** The values of the cache status the platform sends and filters on. */
export const CACHE_STATUS_VALUES = ['HIT', 'MISS', 'BYPASS', 'REVALIDATED', 'STALE', 'UPDATING', 'EXPIRED', '-'] as const;

const contains = <P extends string>(param: P, order: number, flag: string, label: string, hint: string, short: string) =>
  ({ param, match: 'contains', order, flag, form: { label, hint, short }, valid: null, invalid: '', case: 'as is' }) as const;

export interface LogFieldDef {
  /** The name as the platform sends it, and as LogEntry, exports and ClickHouse columns call it. */
  readonly name: string;
  /** The JSON type of its value. */
  readonly type: 'string' | 'number';
  /** Present in every record (never null); a record without it is not a record. */
  readonly required: boolean;
  /** Only extended logging fills it (null otherwise). */
  readonly extended: boolean;
  readonly storage: FieldStorage;
  /** The platform's `search` parameter matches its text. */
  readonly searched: boolean;
  /** The v2 filter on it (the server's and the local one), if any. */
  readonly serverFilter: ServerFilterDef | null;
  /** Its key in local filters and alert rules (`ua=`, `status=5xx`), if any. */
  readonly filterKey: string | null;
  /** Its column in the DuckDB table `logs`, if stored there. */
  readonly duckdb: { readonly column: string; readonly type: 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'UINTEGER' | 'TIMESTAMP' } | null;
  readonly clickhouse: ClickHouseKind;
  /** Its part in the log store's sorting key, if it is in it. */
  readonly storeKey: StoreKey | null;
  /** Short label: the detail view's row and the column header (upper-cased) where shown. */
  readonly label: string;
  /** What it holds, for SQL catalogs and docs. */
  readonly doc: string;
  /** Its column in `burrow logs` text and table output, if shown there. */
  readonly text: TextColumnDef | null;
  /**
   * Its place in a record's line as the local pattern (`/`) reads it (log-records/record-line.ts),
   * if the pattern tries it.
   */
  readonly line: number | null;
  /** Where a line of the legacy v1 format has it (api/logs/v1.ts names the line's columns), if it does. */
  readonly v1: V1Source | null;
}

/**
 * The columns of a v1 line (cache|status|timestamp-ms|bytes|pullzone|ip|referer|url|edge|
 * user-agent|request-id|country), and the parts of its URL.
 */
export type V1Source =
  | 'cache'
  | 'status'
  | 'timestamp-ms'
  | 'bytes'
  | 'pullzone'
  | 'ip'
  | 'referer'
  | 'url'
  | 'edge'
  | 'user-agent'
  | 'request-id'
  | 'country'
  | 'url scheme'
  | 'url host'
  | 'url path';

/** A column of `burrow logs -o text|table`. */
export interface TextColumnDef {
  /** Its place from the left. */
  readonly place: number;
  readonly header: string;
  /** Cells of fixed width in text output (0: as long as the value; the time: as the display zone makes it). */
  readonly width: number;
  readonly right: boolean;
  /** What a null shows. */
  readonly empty: string;
  /** The value in double quotes (a text with spaces, as web servers log it). */
  readonly quoted: boolean;
}

const column = (place: number, header: string, width: number, empty = '', more: { right?: boolean; quoted?: boolean } = {}): TextColumnDef => ({
  place,
  header,
  width,
  right: more.right ?? false,
  empty,
  quoted: more.quoted ?? false,
});

const def = <const T extends LogFieldDef>(d: T): T => d;

export const LOG_FIELDS = [
  def({
    name: 'timestamp',
    type: 'string',
    required: true,
    extended: false,
    storage: 'time',
    searched: false,
    serverFilter: null,
    filterKey: null,
    duckdb: { column: 'ts', type: 'TIMESTAMP' },
    clickhouse: 'time-ms',
    storeKey: 'time',
    label: 'time',
    doc: 'ISO 8601, UTC, millisecond precision',
    text: column(1, 'TIME', 24),
    v1: 'timestamp-ms',
    line: null,
  }),
  def({
    name: 'pullZoneId',
    type: 'number',
    required: true,
    extended: false,
    storage: 'dictionary',
    searched: false,
    serverFilter: null,
    filterKey: null,
    duckdb: { column: 'pull_zone', type: 'UINTEGER' },
    clickhouse: 'UInt32',
    storeKey: 'zone',
    label: 'pull zone',
    doc: 'pull zone id',
    text: column(2, 'ZONE', 7),
    v1: 'pullzone',
    line: null,
  }),
  def({
    name: 'requestId',
    type: 'string',
    required: false,
    extended: false,
    storage: 'id',
    searched: true,
    serverFilter: {
      param: 'requestId',
      match: 'exact',
      order: 9,
      flag: null,
      form: null,
      valid: /^[0-9a-f]{32}$/i,
      invalid: 'a request id (32 hex characters)',
      case: 'lower',
    },
    filterKey: null,
    duckdb: { column: 'request_id', type: 'VARCHAR' },
    clickhouse: 'String',
    storeKey: 'id',
    label: 'request id',
    doc: 'request id (32 hex characters)',
    text: null,
    v1: 'request-id',
    line: 9,
  }),
  def({
    name: 'cacheStatus',
    type: 'string',
    required: false,
    extended: false,
    storage: 'dictionary',
    searched: true,
    serverFilter: {
      param: 'cacheStatus',
      match: 'list',
      order: 2,
      flag: 'cache-status',
      form: { label: 'cache status', hint: CACHE_STATUS_VALUES.join(','), short: 'cache' },
      valid: CACHE_STATUS_VALUES,
      invalid: `a cache status (${CACHE_STATUS_VALUES.join(', ')})`,
      case: 'upper',
    },
    filterKey: 'cache',
    duckdb: { column: 'cache_status', type: 'VARCHAR' },
    clickhouse: 'LowString',
    storeKey: null,
    label: 'cache status',
    doc: 'HIT, MISS, BYPASS, REVALIDATED, STALE, UPDATING, EXPIRED or -',
    text: column(4, 'CACHE', 11),
    v1: 'cache',
    line: 2,
  }),
  def({
    name: 'statusCode',
    type: 'number',
    required: true,
    extended: false,
    storage: 'number',
    searched: false,
    serverFilter: {
      param: 'status',
      match: 'status',
      order: 1,
      flag: 'status',
      form: { label: 'status', hint: 'codes and classes, ORed: 5xx,404', short: 'status' },
      valid: null,
      invalid: 'a status code (100-599) or a class (1xx-5xx); example: 5xx,404',
      case: 'as is',
    },
    filterKey: 'status',
    duckdb: { column: 'status', type: 'INTEGER' },
    clickhouse: 'UInt16',
    storeKey: null,
    label: 'status',
    doc: 'HTTP status code',
    text: column(3, 'STATUS', 3),
    v1: 'status',
    line: 1,
  }),
  def({
    name: 'bytesSent',
    type: 'number',
    required: true,
    extended: false,
    storage: 'number',
    searched: false,
    serverFilter: null,
    filterKey: null,
    duckdb: { column: 'bytes', type: 'BIGINT' },
    clickhouse: 'UInt64',
    storeKey: null,
    label: 'bytes sent',
    doc: 'bytes sent (headers and body)',
    text: column(5, 'BYTES', 9, '', { right: true }),
    v1: 'bytes',
    line: null,
  }),
  def({
    name: 'remoteIp',
    type: 'string',
    required: false,
    extended: false,
    storage: 'address',
    searched: false,
    serverFilter: {
      param: 'remoteIp',
      match: 'exact',
      order: 5,
      flag: 'ip',
      form: { label: 'remote IP', hint: 'one IPv4 or IPv6 address', short: 'ip' },
      valid: 'ip',
      invalid: 'an IPv4 or IPv6 address',
      case: 'as is',
    },
    filterKey: 'ip',
    duckdb: { column: 'remote_ip', type: 'VARCHAR' },
    clickhouse: 'String',
    storeKey: null,
    label: 'remote ip',
    doc: 'client IP',
    text: column(8, 'IP', 15, '-'),
    v1: 'ip',
    line: 6,
  }),
  def({
    name: 'countryCode',
    type: 'string',
    required: false,
    extended: false,
    storage: 'dictionary',
    searched: false,
    serverFilter: {
      param: 'country',
      match: 'list',
      order: 3,
      flag: 'country',
      form: { label: 'country', hint: 'ISO codes: DE,FR', short: 'cc' },
      valid: /^[a-z]{2}$/i,
      invalid: 'an ISO 3166 alpha-2 country code (example: DE)',
      case: 'upper',
    },
    filterKey: 'country',
    duckdb: { column: 'country', type: 'VARCHAR' },
    clickhouse: 'LowString',
    storeKey: null,
    label: 'country',
    doc: 'ISO country code of the client',
    text: column(6, 'CC', 2, '--'),
    v1: 'country',
    line: 4,
  }),
  def({
    name: 'edgeLocation',
    type: 'string',
    required: false,
    extended: false,
    storage: 'dictionary',
    searched: true,
    serverFilter: {
      param: 'edgeLocation',
      match: 'exact',
      order: 4,
      flag: 'edge',
      form: { label: 'edge', hint: 'edge location code, e.g. DE', short: 'edge' },
      valid: /^[a-z0-9-]{1,16}$/i,
      invalid: 'an edge location code (example: WA)',
      case: 'upper',
    },
    filterKey: 'edge',
    duckdb: { column: 'edge', type: 'VARCHAR' },
    clickhouse: 'LowString',
    storeKey: null,
    label: 'edge location',
    doc: 'edge location',
    text: column(7, 'EDGE', 4, '-'),
    v1: 'edge',
    line: 5,
  }),
  def({
    name: 'scheme',
    type: 'string',
    required: false,
    extended: false,
    storage: 'dictionary',
    searched: false,
    serverFilter: null,
    filterKey: null,
    duckdb: { column: 'scheme', type: 'VARCHAR' },
    clickhouse: 'LowString',
    storeKey: null,
    label: 'scheme',
    doc: 'http or https',
    text: null,
    v1: 'url scheme',
    line: null,
  }),
  def({
    name: 'host',
    type: 'string',
    required: false,
    extended: false,
    storage: 'dictionary',
    searched: true,
    serverFilter: null,
    filterKey: null,
    duckdb: { column: 'host', type: 'VARCHAR' },
    clickhouse: 'LowString',
    storeKey: null,
    label: 'host',
    doc: 'requested host',
    text: null,
    v1: 'url host',
    line: null,
  }),
  def({
    name: 'path',
    type: 'string',
    required: false,
    extended: false,
    storage: 'dictionary',
    searched: true,
    serverFilter: null,
    filterKey: 'path',
    duckdb: { column: 'path', type: 'VARCHAR' },
    clickhouse: 'String',
    storeKey: null,
    label: 'path',
    doc: 'path with the query string',
    text: null,
    v1: 'url path',
    line: null,
  }),
  def({
    name: 'url',
    type: 'string',
    required: false,
    extended: false,
    storage: 'derived',
    searched: false,
    serverFilter: contains('urlContains', 6, 'url', 'URL contains', 'host + path, any case', 'url~'),
    filterKey: 'url',
    duckdb: null,
    clickhouse: 'String',
    storeKey: null,
    label: 'url',
    doc: 'the full URL (scheme, host and path)',
    text: column(9, 'URL', 0),
    v1: 'url',
    line: 3,
  }),
  def({
    name: 'userAgent',
    type: 'string',
    required: false,
    extended: false,
    storage: 'dictionary',
    searched: true,
    serverFilter: contains('userAgentContains', 7, 'ua', 'UA contains', 'user agent, any case', 'ua~'),
    filterKey: 'ua',
    duckdb: { column: 'user_agent', type: 'VARCHAR' },
    clickhouse: 'String',
    storeKey: null,
    label: 'user agent',
    doc: 'User-Agent',
    text: column(10, 'USER AGENT', 0, '-', { quoted: true }),
    v1: 'user-agent',
    line: 7,
  }),
  def({
    name: 'referer',
    type: 'string',
    required: false,
    extended: false,
    storage: 'dictionary',
    searched: true,
    serverFilter: contains('refererContains', 8, 'referer', 'referer contains', 'referer, any case', 'ref~'),
    filterKey: 'referer',
    duckdb: { column: 'referer', type: 'VARCHAR' },
    clickhouse: 'String',
    storeKey: null,
    label: 'referer',
    doc: 'Referer',
    text: null,
    v1: 'referer',
    line: 8,
  }),
  def({
    name: 'bodyBytesSent',
    type: 'number',
    required: false,
    extended: true,
    storage: 'number',
    searched: false,
    serverFilter: null,
    filterKey: null,
    duckdb: null,
    clickhouse: 'UInt64',
    storeKey: null,
    label: 'body bytes sent',
    doc: 'body bytes sent (extended logging)',
    text: null,
    v1: null,
    line: null,
  }),
  def({
    name: 'contentRange',
    type: 'string',
    required: false,
    extended: true,
    storage: 'text',
    searched: true,
    serverFilter: null,
    filterKey: null,
    duckdb: null,
    clickhouse: 'String',
    storeKey: null,
    label: 'content range',
    doc: 'Content-Range (extended logging)',
    text: null,
    v1: null,
    line: null,
  }),
  def({
    name: 'authorizationHeader',
    type: 'string',
    required: false,
    extended: true,
    storage: 'text',
    searched: false,
    serverFilter: null,
    filterKey: null,
    duckdb: null,
    clickhouse: 'String',
    storeKey: null,
    label: 'authorization',
    doc: 'Authorization header (a secret: masked when shown)',
    text: null,
    v1: null,
    line: null,
  }),
  def({
    name: 'ja4Fingerprint',
    type: 'string',
    required: false,
    extended: true,
    storage: 'dictionary',
    searched: false,
    serverFilter: null,
    filterKey: null,
    duckdb: null,
    clickhouse: 'String',
    storeKey: null,
    label: 'ja4 fingerprint',
    doc: 'JA4 TLS fingerprint (extended logging)',
    text: null,
    v1: null,
    line: null,
  }),
  def({
    name: 'asn',
    type: 'number',
    required: false,
    extended: true,
    storage: 'number',
    searched: false,
    serverFilter: null,
    filterKey: null,
    duckdb: { column: 'asn', type: 'UINTEGER' },
    clickhouse: 'UInt32',
    storeKey: null,
    label: 'asn',
    doc: 'autonomous system number (extended logging)',
    text: null,
    v1: null,
    line: null,
  }),
  def({
    name: 'asnOrganization',
    type: 'string',
    required: false,
    extended: true,
    storage: 'dictionary',
    searched: false,
    serverFilter: null,
    filterKey: null,
    duckdb: null,
    clickhouse: 'LowString',
    storeKey: null,
    label: 'asn organization',
    doc: 'organization of the autonomous system (extended logging)',
    text: null,
    v1: null,
    line: null,
  }),
] as const;

type Field = (typeof LOG_FIELDS)[number];
type ValueOf<F extends LogFieldDef> = (F['type'] extends 'number' ? number : string) | (F['required'] extends true ? never : null);

/**
 * One CDN request as the logging API v2 returns it. Every field the platform documents is
 * present: missing or null fields are null. Extra fields the platform may add are dropped.
 */
export type LogEntry = { [F in Field as F['name']]: ValueOf<F> };

export type LogFieldName = Field['name'];

/** The fields in the platform's order (the CSV header of an export). */
export const LOG_FIELD_NAMES: readonly LogFieldName[] = LOG_FIELDS.map((f) => f.name);

const BY_NAME = new Map<string, Field>(LOG_FIELDS.map((f) => [f.name, f]));

/** The definition of a field by its platform name. */
export function logField<N extends LogFieldName>(name: N): Extract<Field, { name: N }> {
  return BY_NAME.get(name) as Extract<Field, { name: N }>;
}

/** A field the v2 API filters on, with its filter. */
export type FilteredField = Extract<Field, { serverFilter: ServerFilterDef }>;

/** The fields with a server filter, in the filters' order (the form's, the query string's). */
export const FILTERED_FIELDS: readonly FilteredField[] = LOG_FIELDS.filter((f): f is FilteredField => f.serverFilter !== null).sort(
  (a, b) => a.serverFilter.order - b.serverFilter.order,
);

/** A part of the URL a field holds when the platform sends the URL apart (its `v1` says which). */
export type UrlPart = Extract<V1Source, `url ${string}`>;

/** The field that holds a part of the URL (url = scheme://host + path). */
export function urlPartField<P extends UrlPart>(part: P): Extract<Field, { v1: P }> {
  const field = LOG_FIELDS.find((f): f is Extract<Field, { v1: P }> => f.v1 === part);
  if (!field) throw new Error(`no field holds the URL's ${part}`);
  return field;
}

/**
 * A function that reads one field of a record, with a property access of its own: a closure over
 * the name (`(e) => e[name]`) shares one keyed load among every field it is made for, which V8
 * then makes slow (megamorphic). For loops over fields on a hot path.
 */
export function fieldGetter<N extends LogFieldName>(name: N): (e: LogEntry) => LogEntry[N] {
  if (!BY_NAME.has(name)) throw new Error(`not a log field: ${name}`);
  return new Function('e', `return e[${JSON.stringify(name)}];`) as (e: LogEntry) => LogEntry[N];
}
