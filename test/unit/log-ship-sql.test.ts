import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sqlIdentifier, sqlLiteral } from '../../src/log-ship/sql-text';
import { parseStoreUrl, showStoreUrl, StoreUrlError } from '../../src/config/store-url';
import { columnType, distributedTableSql, formForVersion, recordsTableSql, rejectedTableSql, stateTableSql, tableColumns } from '../../src/log-ship/schema';
import { storeErrorOf } from '../../src/log-ship/store';
import { LOG_FIELDS } from '../../src/log-fields/fields';

test('sqlLiteral: whole numbers as they are, anything else refused', () => {
  assert.equal(sqlLiteral(1058), '1058');
  assert.equal(sqlLiteral(0), '0');
  assert.equal(sqlLiteral(12n), '12');
  assert.throws(() => sqlLiteral(1.5), RangeError);
  assert.throws(() => sqlLiteral(Number.NaN), RangeError);
  assert.throws(() => sqlLiteral(2 ** 60), RangeError);
});

test('sqlLiteral: a string is quoted with quotes, backslashes and control bytes escaped', () => {
  assert.equal(sqlLiteral("it's"), "'it\\'s'");
  assert.equal(sqlLiteral('a\\b'), "'a\\\\b'");
  assert.equal(sqlLiteral("x'; DROP TABLE t; --"), "'x\\'; DROP TABLE t; --'");
  assert.equal(sqlLiteral('line\nbreak\x00\x7f'), "'line\\x0abreak\\x00\\x7f'");
  assert.equal(sqlLiteral('😀 ü'), "'😀 ü'");
});

test('sqlLiteral: a Date is its epoch seconds', () => {
  assert.equal(sqlLiteral(new Date('2026-08-08T14:32:11.265Z')), String(Math.floor(Date.UTC(2026, 7, 8, 14, 32, 11) / 1000)));
  assert.throws(() => sqlLiteral(new Date(Number.NaN)), RangeError);
});

test('sqlIdentifier: plain names in backquotes, anything else refused', () => {
  assert.equal(sqlIdentifier('cdn_logs'), '`cdn_logs`');
  for (const bad of ['', '1abc', 'a-b', 'a`b', 'a b', 'x;DROP']) assert.throws(() => sqlIdentifier(bad), RangeError, bad);
});

test('the store URL: clickhouse://[user@]host[:port][/database], defaults, and no password on the command line', () => {
  assert.deepEqual(parseStoreUrl('clickhouse://ch.internal'), { host: 'ch.internal', port: 8123, user: 'default', database: 'default', secure: false });
  assert.deepEqual(parseStoreUrl('clickhouse://ship@10.0.0.5:18123/logs'), { host: '10.0.0.5', port: 18123, user: 'ship', database: 'logs', secure: false });
  assert.deepEqual(parseStoreUrl('clickhouses://[::1]/x'), { host: '::1', port: 8443, user: 'default', database: 'x', secure: true });
  assert.equal(showStoreUrl(parseStoreUrl('clickhouse://ship@h:1/d')), 'clickhouse://ship@h:1/d');
  assert.throws(
    () => parseStoreUrl('clickhouse://ship:hunter2@h/d'),
    (e: Error) => e instanceof StoreUrlError && /BURROW_LOG_STORE_PASSWORD/.test(e.message) && !e.message.includes('hunter2'),
  );
  for (const bad of ['http://h:8123', 'h:8123', 'clickhouse://h/bad-db', 'clickhouse://h/?x=1']) assert.throws(() => parseStoreUrl(bad), StoreUrlError, bad);
});

test('the form follows the server: DateTime64 and LowCardinality from 20.1, the legacy form before', () => {
  assert.equal(formForVersion('18.16.1'), 'legacy');
  assert.equal(formForVersion('19.17.4.11'), 'legacy');
  assert.equal(formForVersion('20.1.2.4'), 'current');
  assert.equal(formForVersion('24.8.4.13'), 'current');
  assert.equal(formForVersion('garbage'), 'legacy');
});

test('columns are the platform fields in order, typed from LOG_FIELDS (legacy adds timestampMs)', () => {
  const legacy = tableColumns('legacy');
  const current = tableColumns('current');
  assert.deepEqual(
    current.map((c) => c.name),
    LOG_FIELDS.map((f) => f.name),
  );
  assert.deepEqual(
    legacy.map((c) => c.name),
    ['timestamp', 'timestampMs', ...LOG_FIELDS.slice(1).map((f) => f.name)],
  );
  const type = (cols: typeof legacy, name: string) => cols.find((c) => c.name === name)!.type;
  assert.equal(type(legacy, 'timestamp'), "DateTime('UTC')");
  assert.equal(type(current, 'timestamp'), "DateTime64(3, 'UTC')");
  assert.equal(type(legacy, 'cacheStatus'), 'Nullable(String)');
  assert.equal(type(current, 'cacheStatus'), 'LowCardinality(Nullable(String))');
  assert.equal(type(current, 'requestId'), 'String', 'in the sorting key: never Nullable');
  assert.equal(type(current, 'statusCode'), 'UInt16');
  assert.equal(type(current, 'bodyBytesSent'), 'Nullable(UInt64)');
  for (const f of LOG_FIELDS) assert.ok(columnType(f, 'current').length > 0);
});

test('the DDL of both forms: day partitions, the sorting key, comments from the field docs', () => {
  const names = { database: 'logs', table: 'cdn_logs', cluster: null };
  const legacy = recordsTableSql(names, 'legacy');
  const current = recordsTableSql(names, 'current');
  for (const sql of [legacy, current]) {
    assert.match(sql, /^CREATE TABLE IF NOT EXISTS `logs`\.`cdn_logs`/);
    assert.match(sql, /ENGINE = MergeTree\nPARTITION BY toYYYYMMDD\(timestamp\)\nORDER BY \(pullZoneId, timestamp, requestId\)$/);
    assert.match(sql, /`userAgent` Nullable\(String\) COMMENT 'User-Agent'/);
  }
  assert.match(current, /`timestamp` DateTime64\(3, 'UTC'\) COMMENT/);
  assert.match(current, /`countryCode` LowCardinality\(Nullable\(String\)\)/);
  assert.doesNotMatch(current, /timestampMs/);
  assert.match(legacy, /`timestamp` DateTime\('UTC'\) COMMENT/);
  assert.match(legacy, /`timestampMs` UInt16 COMMENT/);
  assert.doesNotMatch(legacy, /LowCardinality|DateTime64/);
  const clustered = { ...names, cluster: 'logs_cluster' };
  assert.match(recordsTableSql(clustered, 'legacy'), /`logs`\.`cdn_logs_local`/);
  assert.match(distributedTableSql(clustered, 'current'), /ENGINE = Distributed\(`logs_cluster`, `logs`, `cdn_logs_local`, pullZoneId\)$/);
  assert.match(stateTableSql(names), /`logs`\.`cdn_logs_ship`[\s\S]*ReplacingMergeTree\(writtenMs\)/);
  // the records put aside: the same in both forms (seconds are enough to find them again), and on
  // the node the shipper talks to under a cluster too
  const rejected = rejectedTableSql(names);
  assert.equal(rejectedTableSql(clustered), rejected);
  assert.match(rejected, /^CREATE TABLE IF NOT EXISTS `logs`\.`cdn_logs_rejected`/);
  assert.match(rejected, /timestamp DateTime\('UTC'\)[\s\S]*line String[\s\S]*error String/);
  assert.match(rejected, /ORDER BY \(pullZoneId, timestamp, requestId\)$/);
});

test('ClickHouse errors: a data error (the rows themselves, with the row named) or anything else, retried', () => {
  const parse = storeErrorOf(
    'ClickHouse insert',
    'Code: 27, e.displayText() = DB::Exception: Cannot parse input: expected " before: zz: (while read the value of key a): (at row 2)\n, e.what() = DB::Exception\n',
  );
  assert.equal(parse.kind, 'data');
  assert.equal(parse.row, 2);
  assert.match(parse.message, /^ClickHouse insert: Code: 27, .*\(at row 2\)$/);
  const tooLong = storeErrorOf('x', 'Code: 131, e.displayText() = DB::Exception: Too large value for FixedString(3): (while read the value of key f)');
  assert.equal(tooLong.kind, 'data');
  assert.equal(tooLong.row, null, 'no row named: the rows are halved');
  for (const transient of [
    'Code: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded',
    'Code: 252, e.displayText() = DB::Exception: Too many parts (300). Merges are processing significantly slower than inserts',
    'Code: 60, e.displayText() = DB::Exception: Table default.cdn_logs does not exist',
    'connect ECONNREFUSED 127.0.0.1:8123',
    'Timeout error.',
  ]) {
    assert.equal(storeErrorOf('x', transient).kind, 'transient', transient);
  }
});

test('the log store setting: env before profile, and its password masked as keys are', async () => {
  const { resolveSettings } = await import('../../src/config/settings');
  const { redact } = await import('../../src/config/redact');
  const file = { defaultProfile: 'p', profiles: { p: { logStore: 'clickhouse://a@h1/x', logStorePassword: 'profile-secret-pw' } } };
  const fromProfile = resolveSettings({}, {}, file);
  assert.equal(fromProfile.logStore, 'clickhouse://a@h1/x');
  assert.equal(fromProfile.logStorePassword, 'profile-secret-pw');
  const fromEnv = resolveSettings({}, { BURROW_LOG_STORE: 'clickhouse://b@h2/y', BURROW_LOG_STORE_PASSWORD: 's3cret-store-pw' }, file);
  assert.equal(fromEnv.logStore, 'clickhouse://b@h2/y');
  assert.equal(fromEnv.logStorePassword, 's3cret-store-pw');
  assert.equal(redact('insert failed for s3cret-store-pw').includes('s3cret-store-pw'), false);
});
