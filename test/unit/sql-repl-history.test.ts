import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { addHistory, historyStep, searchBackward, searchOlder, searchType, type HistorySearch } from '../../src/sql-repl/history';
import { appendHistory, historyKey, historyPath, loadHistory } from '../../src/sql-repl/history-file';
import { registerSecret } from '../../src/config/redact';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-hist-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('addHistory skips blanks and repeats of the last entry, and keeps the newest max', () => {
  let h: string[] = [];
  h = addHistory(h, 'SELECT 1;');
  h = addHistory(h, '   ');
  h = addHistory(h, 'SELECT 1;');
  h = addHistory(h, 'SELECT 2;\n');
  h = addHistory(h, 'SELECT 1;');
  assert.deepEqual(h, ['SELECT 1;', 'SELECT 2;', 'SELECT 1;']);
  let many: string[] = [];
  for (let i = 0; i < 12; i++) many = addHistory(many, `q${i}`, 5);
  assert.deepEqual(many, ['q7', 'q8', 'q9', 'q10', 'q11']);
});

test('up/down walk from the draft to the oldest entry and back to the draft', () => {
  const h = ['a', 'b', 'c'];
  const seen: (number | null | undefined)[] = [];
  let i: number | null = null;
  for (let k = 0; k < 4; k++) {
    const n = historyStep(h, i, -1);
    seen.push(n);
    if (n !== undefined) i = n;
  }
  assert.deepEqual(seen, [2, 1, 0, undefined], 'up: newest first, stops at the oldest');
  const down: (number | null | undefined)[] = [];
  for (let k = 0; k < 4; k++) {
    const n = historyStep(h, i, 1);
    down.push(n);
    if (n !== undefined) i = n;
  }
  assert.deepEqual(down, [1, 2, null, undefined], 'down: back to the draft (null), then nowhere');
  assert.equal(historyStep([], null, -1), undefined, 'an empty history goes nowhere');
});

test('reverse search: newest match first, ctrl-r again goes older, failures are flagged', () => {
  const h = ['SELECT * FROM orders;', 'SELECT 1;', 'select count(*) from ORDERS where x;', 'UPDATE t SET a = 1;'];
  assert.equal(searchBackward(h, 'orders'), 2, 'case-insensitive, newest first');
  assert.equal(searchBackward(h, 'orders', 1), 0);
  assert.equal(searchBackward(h, ''), -1);
  let s: HistorySearch | null = null;
  for (const q of ['o', 'or', 'ord']) s = searchType(h, s, q);
  assert.deepEqual(s, { query: 'ord', match: 2, failed: false });
  s = searchOlder(h, s!);
  assert.deepEqual(s, { query: 'ord', match: 0, failed: false });
  s = searchOlder(h, s);
  assert.equal(s.failed, true, 'no older match: failed, the match stays');
  assert.equal(s.match, 0);
  const none = searchType(h, null, 'zzz');
  assert.deepEqual(none, { query: 'zzz', match: -1, failed: true });
});

test('reverse search finds exactly what a scan from the end finds (property)', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 20 }), fc.string({ minLength: 1, maxLength: 2 }), (entries, q) => {
      const got = searchBackward(entries, q);
      let want = -1;
      for (let i = 0; i < entries.length; i++) if (entries[i]!.toLowerCase().includes(q.toLowerCase())) want = i;
      assert.equal(got, want);
    }),
  );
});

test('history key: host and path, never the token; emulator-style hosts are file-safe', () => {
  assert.equal(historyKey('https://my-db.lite.bunnydb.net/'), 'my-db.lite.bunnydb.net');
  assert.equal(historyKey('http://127.0.0.1:4321/db/analytics-events/'), '127.0.0.1_4321_db_analytics-events');
  const withToken = historyKey('https://h.example/?authToken=SECRETSECRET');
  assert.doesNotMatch(withToken, /SECRET/);
});

test('history file: created 0600, one JSON entry per line (multi-line entries survive), secrets masked, torn lines skipped', () => {
  const file = historyPath(path.join(dir, 'state'), 'db.example');
  const secret = 'eyJhbGciOiJFZERTQSJ9.history-secret-token.sig';
  registerSecret(secret);
  appendHistory(file, 'SELECT 1;');
  appendHistory(file, 'SELECT\n  2;');
  appendHistory(file, `SELECT '${secret}';`);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const raw = fs.readFileSync(file, 'utf8');
  assert.ok(!raw.includes(secret), 'the token never reaches the file');
  fs.appendFileSync(file, '"torn');
  const loaded = loadHistory(file);
  assert.equal(loaded.length, 3);
  assert.deepEqual(loaded.slice(0, 2), ['SELECT 1;', 'SELECT\n  2;']);
  assert.match(loaded[2]!, /^SELECT '•+/);
  assert.deepEqual(loadHistory(path.join(dir, 'missing.jsonl')), []);
});

test('history file is compacted to the newest max entries once it doubles', () => {
  const file = path.join(dir, 'compact.jsonl');
  const long = 'x'.repeat(60);
  for (let i = 0; i < 45; i++) appendHistory(file, `${long}${i}`, 20);
  const loaded = loadHistory(file, 1000);
  assert.ok(loaded.length < 40, `compacted (${loaded.length} lines kept)`);
  assert.equal(loaded[loaded.length - 1], `${long}44`, 'the newest entry is kept');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
});
