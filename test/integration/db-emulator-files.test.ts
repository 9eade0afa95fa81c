import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';

// The hosted database is one file. SQL must not make the emulator read or create other files on
// the machine it runs on (a fuzz test once left files named by random ATTACH arguments in the repo).

const emu = await useEmulator();
const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-attach-'));
test.after(() => {
  client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

for (const [name, sql] of [
  ['ATTACH', `ATTACH DATABASE '${path.join(dir, 'attached.db')}' AS other`],
  ['ATTACH with a bound path', null],
  ['VACUUM INTO', `VACUUM INTO '${path.join(dir, 'copy.db')}'`],
  ['DETACH', 'DETACH DATABASE other'],
] as const) {
  test(`${name} is refused with SQLITE_AUTH and creates no file`, async () => {
    const statement = sql ?? { sql: 'ATTACH DATABASE ? AS other', args: [path.join(dir, 'bound.db')] };
    await assert.rejects(client.execute(statement), (e: unknown) => {
      const err = e as { code?: string; message?: string };
      assert.equal(err.code, 'SQLITE_AUTH');
      assert.match(String(err.message), /not allowed on the hosted database/);
      return true;
    });
    assert.deepEqual(fs.readdirSync(dir), [], 'no file was created');
  });
}

test('the database still works after the refusals, and plain VACUUM is allowed', async () => {
  await client.execute('VACUUM');
  const rs = await client.execute('SELECT count(*) AS n FROM sqlite_schema');
  assert.ok(Number(rs.rows[0]!.n) > 0);
});
