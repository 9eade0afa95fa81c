import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiFor, useEmulator } from '../helpers/emulator';
import { useLossyProxy } from '../helpers/lossy-proxy';
import { DatabaseSession } from '../../src/api/database/index';
import { resolveSettings } from '../../src/config/settings';
import { createSqlStoreWith, type SqlStore } from '../../src/state/sql/store';
import { createUiStore, type UiStore } from '../../src/state/ui-store';
import { until } from '../helpers/wait';

// The SQL shell must never send a write twice by accident, and read-only mode refuses before it
// asks anything. The database sits behind a loopback proxy that can drop the answer to a request
// after the emulator ran it.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-safety-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const emu = await useEmulator();
const dbOrigin = new URL(emu.info.databaseUrl);
const proxy = await useLossyProxy(dbOrigin.origin);
const proxiedUrl = `${proxy.url}${dbOrigin.pathname}${dbOrigin.search}`;

const stores: SqlStore[] = [];
after(async () => {
  for (const s of stores) await s.getState().dispose();
});

function shell(opts: { readOnly?: boolean } = {}): { store: SqlStore; ui: UiStore; messages: (level: string) => string[] } {
  const ui = createUiStore({ readOnly: opts.readOnly ?? false, home: 'home', onQuit: () => {} });
  ui.getState().navigate('sql');
  const settings = { ...resolveSettings({}, {}, {}), databaseUrl: proxiedUrl, databaseToken: emu.info.databaseToken };
  const store = createSqlStoreWith({ api: apiFor(emu), settings, ui, now: Date.now }, { env: { XDG_STATE_HOME: path.join(dir, 'state') }, cwd: dir });
  stores.push(store);
  store.getState().start();
  const messages = (level: string) => store.getState().entries.flatMap((x) => (x.kind === 'message' && x.level === level ? [x.text] : []));
  return { store, ui, messages };
}

const direct = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
after(() => direct.close());
const count = async (sql: string) => Number((await direct.execute(sql)).rows[0]![0]);
const sentWith = (text: string) => proxy.seen.filter((r) => r.method === 'POST' && r.body.includes(text)).length;

test('an unknown outcome: the statement is not put back in the input, and sending it again needs its own yes', async () => {
  await direct.execute('CREATE TABLE uo_orders (id INTEGER PRIMARY KEY, note TEXT)');
  const { store, ui, messages } = shell();
  const write = "INSERT INTO uo_orders (note) VALUES ('paid');";

  proxy.mode = 'reset';
  try {
    await store.getState().submit(write);
  } finally {
    proxy.mode = 'pass';
  }
  assert.equal(sentWith("VALUES ('paid')"), 1, 'sent once, not retried');
  assert.equal(await count('SELECT count(*) FROM uo_orders'), 1, 'the server ran it; the answer was lost');
  const error = messages('error').at(-1) ?? '';
  assert.match(error, /unknown outcome: .*after it was sent; it was not retried: it may or may not have been applied/);
  assert.match(error, /not put back in the input/);
  assert.doesNotMatch(error, /refresh/i, 'the shell has no refresh to offer');
  assert.equal(store.getState().editor.text, '', 'the input is empty: typing does not append to the old write');

  // what the user types next runs on its own
  for (const ch of 'SELECT 1;') store.getState().key({ name: ch === ' ' ? 'space' : ch, text: ch });
  assert.equal(store.getState().editor.text, 'SELECT 1;');
  await store.getState().enter();
  assert.equal(sentWith("VALUES ('paid')"), 1, 'Enter did not send the write again');

  // the same write again (from history or retyped, spacing aside) asks first; no sends nothing
  const again = store.getState().submit("insert into uo_orders (note)\n  VALUES ('paid');");
  await until('the question', () => ui.getState().overlay?.kind === 'confirm');
  const ask = ui.getState().overlay;
  assert.ok(ask?.kind === 'confirm');
  assert.match(ask.request.title, /may already have run/);
  ui.getState().closeOverlay();
  ask.request.onNo!();
  await again;
  assert.match(messages('warn').at(-1) ?? '', /not sent again/);
  assert.equal(sentWith("VALUES ('paid')"), 1, 'no: nothing sent');
  assert.equal(await count('SELECT count(*) FROM uo_orders'), 1);

  // yes sends it once
  const third = store.getState().submit(write);
  await until('the question again', () => ui.getState().overlay?.kind === 'confirm');
  const yes = ui.getState().overlay;
  assert.ok(yes?.kind === 'confirm');
  ui.getState().closeOverlay();
  await yes.request.onYes();
  await third;
  assert.equal(sentWith("VALUES ('paid')"), 2);
  assert.equal(await count('SELECT count(*) FROM uo_orders'), 2);
});

test('read-only mode refuses DELETE without WHERE before any "cannot be undone" question', async () => {
  await direct.execute('CREATE TABLE ro_keep (x)');
  await direct.execute('INSERT INTO ro_keep VALUES (1), (2)');
  const { store, ui, messages } = shell({ readOnly: true });
  const asked: string[] = [];
  const unsubscribe = ui.subscribe((s) => {
    if (s.overlay?.kind === 'confirm') {
      asked.push(s.overlay.request.title);
      s.overlay.request.onNo?.();
      ui.getState().closeOverlay();
    }
  });
  await store.getState().submit('DELETE FROM ro_keep;');
  unsubscribe();
  assert.deepEqual(asked, [], 'no question was asked');
  assert.match(messages('error').at(-1) ?? '', /read-only mode \(--read-only\): "DELETE FROM ro_keep" would write/);
  assert.equal(await count('SELECT count(*) FROM ro_keep'), 2);
});

test('a write cancelled while it runs may still have run: sending it again asks first; a cancelled read does not', async () => {
  await direct.execute('CREATE TABLE uo_slow (n INTEGER)');
  const { store, ui, messages } = shell();
  const slowWrite = 'INSERT INTO uo_slow WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000000) SELECT count(*) FROM c;';
  const running = store.getState().submit(slowWrite);
  await until('the write running', () => store.getState().running);
  store.getState().cancel();
  await running;
  assert.match(messages('warn').at(-1) ?? '', /^cancelled: the server may have run the write anyway; sending it again asks first$/);
  assert.equal(store.getState().editor.text, '', 'not put back in the input');

  const again = store.getState().submit(slowWrite);
  await until('the question', () => ui.getState().overlay?.kind === 'confirm');
  const ask = ui.getState().overlay;
  assert.ok(ask?.kind === 'confirm');
  assert.match(ask.request.title, /may already have run/);
  ui.getState().closeOverlay();
  ask.request.onNo!();
  await again;

  const slowRead = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000000) SELECT count(*) FROM c;';
  const read = store.getState().submit(slowRead);
  await until('the read running', () => store.getState().running);
  store.getState().cancel();
  await read;
  assert.equal(messages('warn').at(-1), 'cancelled');
});
