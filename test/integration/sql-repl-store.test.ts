import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'libsql';
import { apiFor, useEmulator } from '../helpers/emulator';
import type { RunningEmulator } from '../../src/emulator/server';
import { DatabaseSession } from '../../src/api/database/index';
import { resolveSettings } from '../../src/config/settings';
import { createSqlStoreWith, type Entry, type SqlStore, type SqlStoreOptions } from '../../src/state/sql/store';
import { createUiStore, type UiStore } from '../../src/state/ui-store';
import { historyKey, historyPath, loadHistory } from '../../src/sql-repl/history-file';
import { complete } from '../../src/sql-repl/completion';
import { until } from '../helpers/wait';
import { confirmYes } from '../helpers/confirm';
import { execFileSync } from 'node:child_process';

// The SQL shell's store against the emulator's database (real SQLite behind Hrana over HTTP).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-store-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const emu = await useEmulator();

interface Shell {
  store: SqlStore;
  ui: UiStore;
  /** Submits and waits until nothing runs or is queued. */
  run(text: string): Promise<Entry[]>;
  messages(level?: string): string[];
}

let stores: SqlStore[] = [];
after(async () => {
  for (const s of stores) await s.getState().dispose();
});

async function shell(e: RunningEmulator, opts: { token?: string; readOnly?: boolean; store?: SqlStoreOptions } = {}): Promise<Shell> {
  const api = apiFor(e);
  const ui = createUiStore({ readOnly: opts.readOnly ?? false, home: 'home', onQuit: () => {} });
  ui.getState().navigate('sql');
  const settings = { ...resolveSettings({}, {}, {}), databaseUrl: e.info.databaseUrl, databaseToken: opts.token ?? e.info.databaseToken };
  const store = createSqlStoreWith(
    { api, settings, ui, now: Date.now },
    { env: { XDG_STATE_HOME: path.join(dir, 'state') }, cwd: dir, lookupName: true, ...opts.store },
  );
  stores.push(store);
  store.getState().start();
  // the name comes from the management API, once
  await until('the database name', () => store.getState().label === 'burrow-demo');
  const run = async (text: string) => {
    const before = store.getState().entries.length;
    await store.getState().submit(text);
    return store.getState().entries.slice(before);
  };
  const messages = (level?: string) => store.getState().entries.flatMap((x) => (x.kind === 'message' && (!level || x.level === level) ? [x.text] : []));
  return { store, ui, run, messages };
}

test('the prompt gets the database name however long the lookup takes (no deadline of its own)', async () => {
  // a lookup slower than any fixed deadline: every AbortSignal.timeout has already expired
  const timeout = AbortSignal.timeout;
  AbortSignal.timeout = () => AbortSignal.abort(new DOMException('deadline', 'TimeoutError'));
  try {
    const sh = await shell(emu);
    assert.equal(sh.store.getState().label, 'burrow-demo');
  } finally {
    AbortSignal.timeout = timeout;
  }
});

const results = (entries: Entry[]) => entries.flatMap((e) => (e.kind === 'result' ? [e] : []));

test('several statements on one line each show their own result; values keep their types', async () => {
  const sh = await shell(emu);
  const out = await sh.run("SELECT count(*) AS n FROM customers; SELECT 1 AS one, 1.0 AS real_one, NULL AS nul, x'00ff' AS b;");
  const [count, values] = results(out);
  assert.ok(count && values, 'two result sets');
  const direct = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  const want = await direct.execute('SELECT count(*) FROM customers');
  await direct.close();
  assert.deepEqual(count.result.rows, want.rows);
  assert.deepEqual(values.result.rows[0], [1n, 1, null, new Uint8Array([0, 255])]);
  assert.match(count.summary, /^1 row · [\d.]+ ms$/);
  assert.deepEqual(out[0], {
    id: out[0]!.id,
    kind: 'input',
    prompt: 'burrow-demo>',
    text: "SELECT count(*) AS n FROM customers; SELECT 1 AS one, 1.0 AS real_one, NULL AS nul, x'00ff' AS b;",
  });
});

test('an error shows its code and message, stops there; the failed part is recalled by up, never put in front of the next input', async () => {
  const sh = await shell(emu);
  const out = await sh.run('SELECT 1;\nSELEC 2;\nSELECT 3;');
  assert.equal(results(out).length, 1, 'the statement before the error ran');
  const err = sh.messages('error').at(-1)!;
  assert.match(err, /^error SQL_PARSE_ERROR: .*SELEC.*\(statement 2 of 3, line 2\)$/);
  assert.match(sh.messages('warn').at(-1)!, /the 1 statement\(s\) after it did not run/);
  assert.equal(sh.store.getState().editor.text, '', 'the input is empty for the next statement');
  assert.equal(sh.store.getState().history.at(-1), 'SELEC 2;\nSELECT 3;', 'up brings back the part that failed');
});

test('writes report rows affected and the last insert rowid; DDL refreshes the completion schema', async () => {
  const sh = await shell(emu);
  await sh.run('CREATE TABLE repl_store_t (id INTEGER PRIMARY KEY, label TEXT, weight REAL);');
  await until('the new table in the schema', () => sh.store.getState().schema.tables.some((t) => t.name === 'repl_store_t'));
  const text = 'SELECT wei FROM repl_store_t';
  assert.deepEqual(complete(text, 'SELECT wei'.length, sh.store.getState().schema).candidates, ['weight']);
  await sh.run("INSERT INTO repl_store_t (label) VALUES ('a'), ('b');");
  assert.match(sh.messages('ok').at(-1)!, /^2 rows affected · last insert rowid 2 · /);
});

test('UPDATE/DELETE without WHERE ask first: no keeps the rows and the input, yes runs it', async () => {
  const sh = await shell(emu);
  await sh.run('CREATE TABLE repl_store_d (x); INSERT INTO repl_store_d VALUES (1), (2), (3);');
  sh.store.getState().submit('DELETE FROM repl_store_d;');
  await until('the confirmation', () => sh.ui.getState().overlay?.kind === 'confirm');
  const ask = sh.ui.getState().overlay;
  assert.ok(ask?.kind === 'confirm');
  assert.match(ask.request.title, /DELETE without WHERE deletes every row of repl_store_d/);
  sh.ui.getState().closeOverlay();
  ask.request.onNo!();
  await until('not run', () => sh.messages('warn').some((m) => /not run/.test(m)));
  assert.equal(sh.store.getState().editor.text, 'DELETE FROM repl_store_d;', 'the input is back');
  let count = results(await sh.run('SELECT count(*) FROM repl_store_d;'))[0]!;
  assert.deepEqual(count.result.rows, [[3n]]);
  sh.store.getState().submit('DELETE FROM repl_store_d;');
  await until('the confirmation again', () => sh.ui.getState().overlay?.kind === 'confirm');
  const again = sh.ui.getState().overlay;
  assert.ok(again?.kind === 'confirm');
  sh.ui.getState().closeOverlay();
  await again.request.onYes();
  await until('the delete', () => sh.messages('ok').some((m) => /3 rows affected/.test(m)));
  count = results(await sh.run('SELECT count(*) FROM repl_store_d;'))[0]!;
  assert.deepEqual(count.result.rows, [[0n]]);
});

test('dot-commands: .tables .schema .indexes .describe .mode .timer, unknown ones explained', async () => {
  const sh = await shell(emu);
  const tables = (await sh.run('.tables')).find((e) => e.kind === 'words');
  assert.ok(tables?.kind === 'words');
  const direct = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  const names = (await direct.execute("SELECT name FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' ORDER BY name")).rows.map(
    (r) => r[0],
  );
  const indexes = (await direct.execute("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'orders' ORDER BY name")).rows.map((r) => r[0]);
  const cols = (await direct.execute("SELECT name FROM pragma_table_info('customers')")).rows.map((r) => r[0]);
  await direct.close();
  assert.deepEqual(tables.words, names);
  const schema = (await sh.run('.schema customers')).find((e) => e.kind === 'text');
  assert.ok(schema?.kind === 'text');
  assert.match(schema.lines.join('\n'), /^CREATE TABLE customers \(/m);
  const idx = (await sh.run('.indexes orders')).find((e) => e.kind === 'words');
  assert.ok(idx?.kind === 'words');
  assert.deepEqual(idx.words, indexes);
  const desc = results(await sh.run('.describe customers'))[0]!;
  assert.deepEqual(desc.result.columns, ['name', 'type', 'not_null', 'default', 'pk']);
  assert.deepEqual(
    desc.result.rows.map((r) => r[0]),
    cols,
  );
  await sh.run('.describe nope_table');
  assert.match(sh.messages('error').at(-1)!, /no table or view named nope_table/);
  await sh.run('.mode box');
  await sh.run('.timer off');
  const r = results(await sh.run('SELECT 1;'))[0]!;
  assert.equal(r.mode, 'box');
  assert.equal(r.summary, '1 row', 'no timing with the timer off');
  await sh.run('.frob');
  assert.match(sh.messages('error').at(-1)!, /unknown command \.frob: type \.help/);
  const help = (await sh.run('.help')).find((e) => e.kind === 'text');
  assert.ok(help?.kind === 'text' && help.lines.some((l) => l.startsWith('.dump [TABLE]')));
});

test('.output FILE writes results in the current mode until .output alone; .read runs a file', async () => {
  const sh = await shell(emu);
  await sh.run('.mode csv');
  await sh.run('.output out.csv');
  await sh.run('SELECT id, name, NULL AS n FROM customers ORDER BY id LIMIT 3;');
  assert.match(sh.messages('ok').at(-1)!, /3 rows · .* · written to out\.csv \(csv\)/);
  await sh.run('.output');
  const after = results(await sh.run('SELECT 42;'));
  assert.equal(after.length, 1, 'back on the screen');
  const csv = fs.readFileSync(path.join(dir, 'out.csv'), 'utf8').trimEnd().split('\n');
  assert.equal(csv[0], 'id,name,n');
  assert.equal(csv.length, 4);
  assert.match(csv[1]!, /^1,[^,]+,$/);

  fs.writeFileSync(
    path.join(dir, 'script.sql'),
    'CREATE TABLE repl_read (a);\nINSERT INTO repl_read VALUES (1);\nINSERT INTO repl_read VALUES (2);\nSELECT sum(a) AS s FROM repl_read;\nSELECT 1',
  );
  const out = await sh.run('.read script.sql');
  assert.ok(sh.messages('warn').some((m) => /ends inside a statement \(line 5/.test(m)));
  assert.ok(sh.messages('info').some((m) => /\.read script\.sql: 4 statements/.test(m)));
  assert.deepEqual(results(out).at(-1)!.result.rows, [[3n]]);
  await sh.run('.read missing.sql');
  assert.match(sh.messages('error').at(-1)!, /cannot read missing\.sql: ENOENT/);
});

test('.dump writes SQL that rebuilds the tables in SQLite', async () => {
  const sh = await shell(emu);
  await sh.run('.output dump.sql');
  await sh.run('.dump orders');
  await sh.run('.output');
  assert.match(sh.messages('ok').find((m) => /dump written/.test(m)) ?? '', /dump written to dump\.sql \(\d+ lines\)/);
  const sql = fs.readFileSync(path.join(dir, 'dump.sql'), 'utf8');
  const copy = new Database(':memory:');
  copy.exec(sql);
  const direct = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  const want = (await direct.execute('SELECT count(*), sum(id), max(status) FROM orders')).rows[0]!;
  await direct.close();
  const got = copy.prepare('SELECT count(*), sum(id), max(status) FROM orders').raw().safeIntegers().get() as unknown[];
  assert.deepEqual(got.map(String), want.map(String));
  copy.close();
});

test('a transaction spans inputs; leaving asks, and rollback or commit is done before leaving', async () => {
  const sh = await shell(emu);
  await sh.run('CREATE TABLE repl_tx (a);');
  await sh.run('BEGIN; INSERT INTO repl_tx VALUES (1);');
  assert.ok(sh.store.getState().status?.transaction, 'the transaction is open');
  assert.ok(Object.keys(sh.ui.getState().pending).includes('sql:transaction'), 'quitting the console asks first');
  const out = await sh.run('SELECT count(*) FROM repl_tx;');
  assert.equal(out[0]!.kind === 'input' && out[0]!.prompt, 'burrow-demo*>', 'the prompt shows the open transaction');
  sh.store.getState().leave('back');
  assert.deepEqual(sh.store.getState().leavePrompt, { then: 'back' });
  await sh.store.getState().answerLeave('stay');
  assert.ok(sh.store.getState().status?.transaction, 'stay keeps it open');
  assert.equal(sh.ui.getState().stack.at(-1)!.id, 'sql');
  sh.store.getState().leave('back');
  await sh.store.getState().answerLeave('rollback');
  assert.equal(sh.store.getState().status?.transaction, null);
  assert.equal(sh.ui.getState().stack.at(-1)!.id, 'home', 'then it left the screen');
  assert.deepEqual(results(await sh.run('SELECT count(*) FROM repl_tx;'))[0]!.result.rows, [[0n]]);
  assert.ok(!Object.keys(sh.ui.getState().pending).includes('sql:transaction'));

  sh.ui.getState().navigate('sql');
  await sh.run('BEGIN; INSERT INTO repl_tx VALUES (2);');
  sh.store.getState().leave('back');
  await sh.store.getState().answerLeave('commit');
  assert.deepEqual(results(await sh.run('SELECT a FROM repl_tx;'))[0]!.result.rows, [[2n]]);
});

test('past the server idle limit: kept alive it commits; without keep-alive the loss is said plainly', async () => {
  const quick = await useEmulator({ streamIdleMs: 400 });
  const streams = () => quick.databaseStreams();
  const alive = await shell(quick, { store: { keepAliveMs: 100 } });
  await alive.run('CREATE TABLE repl_idle (a); BEGIN; INSERT INTO repl_idle VALUES (7);');
  const dead = await shell(quick, { store: { keepAliveMs: 0 } });
  await dead.run('SELECT 1;');
  // every stream but the kept-alive one expires (dead's was used last, so alive's has been idle
  // longer than the limit too, but for the keep-alive)
  await until('the idle streams expired', () => streams().expired > 0 && streams().open === 1);
  await alive.run('COMMIT;');
  assert.deepEqual(results(await alive.run('SELECT a FROM repl_idle;'))[0]!.result.rows, [[7n]]);

  await dead.run('BEGIN; INSERT INTO repl_idle VALUES (8);');
  await until('every stream expired', () => streams().open === 0);
  await dead.run('COMMIT;');
  assert.match(dead.messages('error').at(-1)!, /stream lost: the open transaction was rolled back \(.*\); nothing since BEGIN was kept/);
  assert.equal(dead.store.getState().status?.transaction, null);
  assert.deepEqual(results(await dead.run('SELECT a FROM repl_idle ORDER BY a;'))[0]!.result.rows, [[7n]], 'the 8 was rolled back');
});

test('a read-only token: badge state, and writes refused with an explanation', async () => {
  const sh = await shell(emu, { token: emu.info.readOnlyDatabaseToken });
  assert.equal(sh.store.getState().status?.tokenAccess, 'read-only');
  await sh.run("INSERT INTO customers (name, email) VALUES ('x', 'y');");
  assert.match(sh.messages('error').at(-1)!, /BLOCKED.*read-only: SELECT and other reads work/);
  assert.equal(results(await sh.run('SELECT 1;')).length, 1, 'reads work');
});

test('--read-only console: statements that would write are refused before anything runs', async () => {
  const sh = await shell(emu, { readOnly: true });
  await sh.run('SELECT 1; CREATE TABLE repl_ro (a);');
  assert.match(sh.messages('error').at(-1)!, /read-only mode \(--read-only\): "CREATE TABLE repl_ro \(a\)" would write/);
  const direct = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  const exists = await direct.execute("SELECT count(*) FROM sqlite_schema WHERE name = 'repl_ro'");
  await direct.close();
  assert.deepEqual(exists.rows, [[0n]]);
  assert.equal(results(await sh.run('SELECT 2;')).length, 1);
});

test('history is saved per database (0600) and walked with up/down', async () => {
  const sh = await shell(emu, { store: { emulator: true } });
  await sh.run('SELECT 11;');
  await sh.run('SELECT\n  12;');
  const file = historyPath(path.join(dir, 'state', 'burrow'), historyKey('http://emulator/'));
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(loadHistory(file).slice(-2), ['SELECT 11;', 'SELECT\n  12;']);
  const key = (name: string) => sh.store.getState().key({ name, text: null });
  sh.store.getState().key({ name: 'x', text: 'x' });
  key('up');
  assert.equal(sh.store.getState().editor.text, 'SELECT\n  12;');
  key('up'); // inside a multi-line entry up moves a line first
  key('up');
  assert.equal(sh.store.getState().editor.text, 'SELECT 11;');
  key('down');
  key('down');
  key('down');
  assert.equal(sh.store.getState().editor.text, 'x', 'down past the newest brings the draft back');
  // a second shell on the same database reads the same file
  const next = await shell(emu, { store: { emulator: true } });
  assert.deepEqual(next.store.getState().history.slice(-2), ['SELECT 11;', 'SELECT\n  12;']);
});

test('esc goes back one level: to the results when there are some, else off the screen', async () => {
  const sh = await shell(emu);
  const esc = () => sh.store.getState().key({ name: 'esc', text: null });
  esc();
  assert.equal(sh.ui.getState().stack.at(-1)!.id, 'home', 'nothing to browse: esc leaves the screen');
  sh.ui.getState().navigate('sql');
  sh.store.getState().setFocus('editor');
  await sh.run('SELECT 1;');
  esc();
  assert.equal(sh.store.getState().focus, 'results');
  assert.equal(sh.ui.getState().stack.at(-1)!.id, 'sql');
});

test('.output FILE: a new file is 0600; an existing file is replaced only when the person says so; a link is named as one and never written through', async () => {
  const sh = await shell(emu);
  const old = process.umask(0o022);
  try {
    const fresh = path.join(dir, 'fresh-output.txt');
    await sh.run(`.output ${fresh}`);
    await sh.run('SELECT 1 AS one;');
    await sh.run('.output');
    assert.equal(fs.statSync(fresh).mode & 0o777, 0o600, 'a new file is private');

    // an existing file: asked; no keeps it as it was
    const existing = path.join(dir, 'existing-output.txt');
    fs.writeFileSync(existing, 'keep me\n', { mode: 0o644 });
    const asked = sh.run(`.output ${existing}`);
    await until('the question', () => sh.ui.getState().overlay?.kind === 'confirm');
    const o = sh.ui.getState().overlay;
    assert.ok(o?.kind === 'confirm' && /existing-output\.txt already exists/.test(o.request.title));
    sh.ui.getState().closeOverlay();
    if (o?.kind === 'confirm') await o.request.onNo?.();
    await asked;
    assert.equal(fs.readFileSync(existing, 'utf8'), 'keep me\n');
    assert.equal(sh.store.getState().outputFile, null);
    // yes replaces it with a new 0600 file
    const replaced = sh.run(`.output ${existing}`);
    await until('the question', () => sh.ui.getState().overlay?.kind === 'confirm');
    await confirmYes(sh.ui);
    await replaced;
    await sh.run('SELECT 2 AS two;');
    await sh.run('.output');
    assert.match(fs.readFileSync(existing, 'utf8'), /two/);
    assert.equal(fs.statSync(existing).mode & 0o777, 0o600);

    // a link to a file elsewhere: the question says it is a link; yes replaces the link, the target is untouched
    const target = path.join(dir, 'link-target.txt');
    fs.writeFileSync(target, 'precious\n', { mode: 0o644 });
    const link = path.join(dir, 'link-output.txt');
    fs.symlinkSync(target, link);
    const viaLink = sh.run(`.output ${link}`);
    await until('the question', () => sh.ui.getState().overlay?.kind === 'confirm');
    const q = sh.ui.getState().overlay;
    assert.ok(
      q?.kind === 'confirm' && /link-output\.txt is a symbolic link \(to .*link-target\.txt\)/.test(q.request.title),
      q?.kind === 'confirm' ? q.request.title : 'no confirm',
    );
    await confirmYes(sh.ui);
    await viaLink;
    await sh.run('SELECT 3 AS three;');
    await sh.run('.output');
    assert.equal(fs.readFileSync(target, 'utf8'), 'precious\n', 'nothing was written through the link');
    assert.equal(fs.statSync(target).mode & 0o777, 0o644, 'the target keeps its mode');
    assert.ok(fs.lstatSync(link).isFile(), 'the link was replaced by a file');
    assert.equal(fs.statSync(link).mode & 0o777, 0o600);
    assert.match(fs.readFileSync(link, 'utf8'), /three/);

    // a FIFO is never opened (it would block)
    const fifo = path.join(dir, 'fifo-output');
    execFileSync('mkfifo', [fifo]);
    await sh.run(`.output ${fifo}`);
    assert.match(sh.messages('error').at(-1)!, /fifo-output is a FIFO, not a file/);
  } finally {
    process.umask(old);
  }
});
