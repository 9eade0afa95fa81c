import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '../../src/emulator/database/engine';
import { StmtError } from '../../src/emulator/database/stmt-error';
import { WriteGate } from '../../src/emulator/database/write-gate';

// When SQLite itself answers SQLITE_BUSY (a writer the engine's write lock does not see, such as
// another process), the statement is left running. The connection must not keep it: while it
// counts as an active writer, later autocommit writes on that connection are acknowledged and
// never committed.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-busy-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'db.sqlite');
const limits = { statementTimeoutMs: 5000, maxResponseBytes: 1 << 20 };
const stmt = (sql: string) => ({ sql, args: [], namedArgs: [], wantRows: true });

test("a statement that met SQLITE_BUSY does not swallow the connection's later autocommit writes", async () => {
  // separate gates: the two connections do not see each other's lock, as two processes would not
  const holder = await Connection.open(file, limits, new WriteGate(5000));
  const victim = await Connection.open(file, limits, new WriteGate(5000));
  const reader = await Connection.open(file, limits, new WriteGate(5000));
  after(async () => {
    for (const c of [holder, victim, reader]) await c.close();
  });
  await holder.execute(stmt('PRAGMA journal_mode = WAL'));
  await holder.execute(stmt('CREATE TABLE t (x INTEGER)'));
  await holder.execute(stmt('BEGIN IMMEDIATE'));
  await holder.execute(stmt('INSERT INTO t VALUES (0)'));
  await assert.rejects(victim.execute(stmt('INSERT INTO t VALUES (1)')), (e: unknown) => e instanceof StmtError && e.code === 'SQLITE_BUSY');
  await holder.execute(stmt('COMMIT'));

  await victim.execute(stmt('INSERT INTO t VALUES (2)'));
  assert.equal(victim.autocommit, true);
  const seen = await reader.execute(stmt('SELECT group_concat(x) FROM t'));
  assert.deepEqual(seen.rows, [[{ type: 'text', value: '0,2' }]], 'the acknowledged write is committed');
  // and a transaction on the same connection can commit (no statement left "in progress")
  await victim.execute(stmt('BEGIN'));
  await victim.execute(stmt('INSERT INTO t VALUES (3)'));
  await victim.execute(stmt('COMMIT'));
  assert.deepEqual((await reader.execute(stmt('SELECT count(*) FROM t'))).rows, [[{ type: 'integer', value: '3' }]]);
});
