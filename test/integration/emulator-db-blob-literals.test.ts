import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';

// The engine vets a statement from its EXPLAIN listing, which shows a blob literal's bytes as
// TEXT; libsql aborts the engine process on TEXT that is not UTF-8. Blob literals of any bytes,
// written directly or held by a view, must come back as blobs with the engine still up.

const emu = await useEmulator();

test('blob literals that are not UTF-8, direct and through a view, do not bring the engine down', async () => {
  const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  try {
    const direct = await client.execute("SELECT x'deadbeef' AS b, x'c0ffee' AS c");
    assert.deepEqual([...new Uint8Array(direct.rows[0]!.b as ArrayBuffer)], [0xde, 0xad, 0xbe, 0xef]);
    await client.execute('CREATE TABLE IF NOT EXISTS blob_literal_t (b BLOB)');
    await client.execute("INSERT INTO blob_literal_t VALUES (x'ff00fe')");
    await client.execute("CREATE VIEW IF NOT EXISTS blob_literal_v AS SELECT x'fffe' AS b, count(*) AS n FROM blob_literal_t");
    const viewed = await client.execute('SELECT b, n FROM blob_literal_v');
    assert.deepEqual([...new Uint8Array(viewed.rows[0]!.b as ArrayBuffer)], [0xff, 0xfe]);
    // the engine was not restarted: a transaction begun before is still there after such a read
    const tx = await client.transaction('write');
    await tx.execute("INSERT INTO blob_literal_t VALUES (x'80')");
    await tx.execute("SELECT x'81828384' AS b");
    await tx.commit();
    const count = await client.execute('SELECT count(*) AS n FROM blob_literal_t');
    assert.equal(Number(count.rows[0]!.n), 2);
    // and with a view holding a blob literal in the schema, forbidden functions are still refused
    await assert.rejects(client.execute("SELECT length(readfile('/etc/passwd'))"), /not authorized/);
  } finally {
    client.close();
  }
});
