import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOG_FIELDS, LOG_FIELD_NAMES, type LogEntry } from '../../src/log-fields/fields';
import { readLogEntry } from '../../src/api/logs/entry';

test('the field table names every key of a LogEntry read from the platform, once, in its order', () => {
  const raw: Record<string, unknown> = {};
  for (const f of LOG_FIELDS) raw[f.name] = f.name === 'timestamp' ? '2026-11-27T10:00:00.000Z' : f.type === 'number' ? 1 : 'x';
  const entry = readLogEntry(raw) as LogEntry;
  assert.ok(entry, 'a record with every field of the table is read');
  assert.deepEqual(Object.keys(entry), LOG_FIELD_NAMES);
  assert.equal(new Set(LOG_FIELD_NAMES).size, LOG_FIELD_NAMES.length);
});

test('filter keys, server filters (parameter, flag, place), text columns, line places, v1 columns, store keys and SQL columns are each unique', () => {
  const lists = {
    filterKey: LOG_FIELDS.map((f) => f.filterKey),
    param: LOG_FIELDS.map((f) => f.serverFilter?.param ?? null),
    flag: LOG_FIELDS.map((f) => f.serverFilter?.flag ?? null),
    order: LOG_FIELDS.map((f) => f.serverFilter?.order ?? null),
    short: LOG_FIELDS.map((f) => f.serverFilter?.form?.short ?? null),
    textPlace: LOG_FIELDS.map((f) => f.text?.place ?? null),
    textHeader: LOG_FIELDS.map((f) => f.text?.header ?? null),
    line: LOG_FIELDS.map((f) => f.line),
    v1: LOG_FIELDS.map((f) => f.v1),
    storeKey: LOG_FIELDS.map((f) => f.storeKey),
  };
  for (const [key, list] of Object.entries(lists)) {
    const values = list.filter((v) => v !== null);
    assert.equal(new Set(values).size, values.length, key);
  }
  const columns = LOG_FIELDS.flatMap((f) => (f.duckdb ? [f.duckdb.column] : []));
  assert.equal(new Set(columns).size, columns.length);
});

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** The TypeScript files of src/ outside the emulator (its own model of the platform) and the table itself. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return full.endsWith('/emulator') || full.endsWith('/log-fields') ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/**
 * Properties of the table that nothing derives from yet. Each must really be unused (the test
 * below says when one is used: take it off this list).
 */
const NOT_YET_DERIVED: string[] = [];

test('every property of a field definition is read somewhere in src/ (a property nothing reads is a list spelt elsewhere)', () => {
  // the files that import the table (a property of the same name elsewhere is another thing)
  const text = sourceFiles()
    .map((f) => readFileSync(f, 'utf8'))
    .filter((t) => t.includes('log-fields/fields'))
    .join('\n');
  const props = Object.keys(LOG_FIELDS[0]!);
  for (const f of LOG_FIELDS) assert.deepEqual(Object.keys(f), props, `${f.name} has the same properties as the others`);
  for (const prop of props) {
    // f.prop, or a destructuring ({ name, prop })
    const used = new RegExp(`\\.${prop}\\b|\\(\\{[^)]*\\b${prop}\\b[^)]*\\}\\)`).test(text);
    if (NOT_YET_DERIVED.includes(prop)) assert.ok(!used, `${prop} is read now: take it off NOT_YET_DERIVED`);
    else assert.ok(used, `nothing in src/ reads the field property "${prop}"`);
  }
});

/**
 * Files of src/ (outside the emulator and the table) that spell each field's name. The goal is at
 * most 6 per field (the default); the budgets below are today's counts above it, lowered as lists
 * are derived from the table (a count above its budget fails: a new list of fields was spelt out).
 *
 * What counts, for every field alike (so that host, path, url, timestamp and scheme, which are also
 * plain words, are counted as fields and not as words):
 * - only a use as an identifier: `.name` (a property read), `name:` or `name?:` (a key, a member),
 *   `'name'` (a key as a string); not a comment's word, not a local variable of that name;
 * - only in a file about log records: one in a log folder (api/logs, log-engine, log-records,
 *   logs-sql, log-ship, state/logs, screens/logs) or one that imports from them or names LogEntry.
 *   A database URL's host, a config file's path or the shield API's own pullZoneId are other things
 *   with the same name. Over-counting stays (log-ship's ClickHouse host, a marks file's path): a
 *   budget is an upper bound, never lenient.
 * What still spells fields by hand is listed as a known debt in docs/ARCHITECTURE.md.
 */
const FILE_BUDGET: Record<string, number> = {
  timestamp: 17,
  pullZoneId: 8,
  requestId: 10,
  statusCode: 11,
  host: 19,
  path: 20,
  url: 17,
};

const LOG_FOLDER = /\/(api\/logs|log-engine|log-records|logs-sql|log-ship|state\/logs|screens\/logs)\//;
const LOG_IMPORT = /\bLogEntry\b|from '[^']*(?:log-fields|api\/logs|log-engine|log-records|logs-sql|log-ship)\b/;

test('a field name is spelt in few files of src/ (the budget of each only goes down)', () => {
  const texts = sourceFiles()
    .map((f) => ({ f, t: readFileSync(f, 'utf8') }))
    .filter(({ f, t }) => LOG_FOLDER.test(f) || LOG_IMPORT.test(t))
    .map(({ t }) => t);
  const counts: Record<string, number> = {};
  for (const name of LOG_FIELD_NAMES) {
    const used = new RegExp(`\\.${name}\\b|\\b${name}\\??\\s*:|['"\`]${name}['"\`]`);
    counts[name] = texts.filter((t) => used.test(t)).length;
  }
  const over = LOG_FIELD_NAMES.filter((name) => counts[name]! > (FILE_BUDGET[name] ?? 6));
  assert.deepEqual(over, [], `files per field now: ${JSON.stringify(counts)}`);
  const slack = Object.keys(FILE_BUDGET).filter((name) => FILE_BUDGET[name]! > Math.max(6, counts[name]!));
  assert.deepEqual(slack, [], `a budget above today's count: lower it to ${JSON.stringify(counts)}`);
});
