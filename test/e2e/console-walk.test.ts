import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useEmulator } from '../helpers/emulator';
import { startBurrow } from '../helpers/pty';
import { filesUnder, leaks, seededSecrets, type Collected } from '../helpers/secrets';

// `burrow sql` at a terminal with a token in its URL and --debug: the token is never drawn,
// logged or remembered. The console's walk through every screen at 80x24 (fits, no secret drawn,
// logged, remembered or exported) runs in process: test/integration/console-walk.

const emu = await useEmulator({ logRate: 3, ingestDelayMs: 300 });
const secrets = seededSecrets(emu);

test('burrow sql with a token in the URL, at a terminal: the token is never drawn, logged or remembered', { timeout: 30_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-walk-sql-'));
  const app = startBurrow(['sql', `${emu.info.databaseUrl}/?authToken=${emu.info.databaseToken}`, '--debug'], {
    env: { XDG_STATE_HOME: path.join(dir, 'state'), BURROW_API_KEY: emu.info.accessKey, BURROW_BASE_URL: emu.info.baseUrl },
    cols: 80,
    rows: 24,
  });
  try {
    await app.waitFor('burrow-demo>', 15_000);
    await app.type('SELECT count(*) AS n FROM orders;\r');
    await app.waitFor(/\(1 row/);
    await app.type(`SELECT '${emu.info.accessKey.slice(0, 8)}' AS not_a_secret;\r`);
    await app.waitFor(/not_a_secret/);
    await app.press('ctrl-d');
    await app.exited;
  } finally {
    app.kill('SIGKILL');
  }
  const files = filesUnder(path.join(dir, 'state'));
  assert.ok(
    files.some((f) => f.file.includes('sql-history')),
    'history written',
  );
  assert.deepEqual(leaks([{ where: 'burrow sql screen', text: app.rawOutput() }, ...files.map((f) => ({ where: f.file, text: f.text }))], secrets), []);
  fs.rmSync(dir, { recursive: true, force: true });
});
