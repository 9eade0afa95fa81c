import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { runBurrow, type CliRun, spawnBurrow } from '../helpers/cli';
import { csvRows } from '../helpers/csv';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { startBurrow } from '../helpers/pty';
import { until } from '../helpers/wait';
import { assertNoHostileBytes, HOSTILE, HOSTILE_VISIBLE, hostileSpec, poisonV1, startHostileProxy } from '../helpers/hostile';

// Every CLI output format against a platform whose every string field carries terminal control
// sequences (OSC 52 clipboard write, OSC 0 title, CSI clear, bidi override, C1 controls), and a
// database row and a trigger error carrying them. Human output (tables, errors on stderr) never
// passes them raw; JSON escapes them and keeps the value; CSV is exact in a pipe and made safe at
// a terminal.

const emu = await useEmulator({ logRate: 3 });
const api = apiFor(emu);
const mgmt = await startHostileProxy(emu.info.baseUrl);
const logging = await startHostileProxy(emu.info.loggingUrl, { keep: ['timestamp'], text: poisonV1 });
const failing = await startHostileProxy(emu.info.baseUrl, { failPaths: /./ });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-hostile-cli-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const baseEnv = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state') };
const hostileEnv = { ...envFor(emu), BURROW_BASE_URL: mgmt.url, BURROW_LOGGING_URL: logging.url };
const burrow = (args: string[], env: Record<string, string> = hostileEnv) => runBurrow(args, { env: { ...baseEnv, ...env } });

// a hostile row, and a trigger whose RAISE text is hostile, put there with the official client
const db = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
after(() => db.close());
await db.execute('CREATE TABLE hostile (id INTEGER PRIMARY KEY, name TEXT)');
await db.execute({ sql: 'INSERT INTO hostile (id, name) VALUES (1, ?)', args: [`${HOSTILE}row`] });
await db.execute(`CREATE TRIGGER hostile_guard BEFORE DELETE ON hostile BEGIN SELECT RAISE(ABORT, '${HOSTILE.replace(/'/g, "''")}no'); END`);

async function resourceArgs(): Promise<string[][]> {
  const zones = await api.shield.listAllZones();
  const paid = zones.find((z) => z.planType !== 0)!;
  const app = (await api.containers.listApps()).items[0]!;
  const lb = (await api.loadBalancers.list())[0]!;
  return [
    ['shield-zones'],
    ['api-guardian', String(paid.shieldZoneId)],
    ['limits'],
    ['apps'],
    ['region-settings', app.id],
    ['regions'],
    ['video-libraries'],
    ['load-balancers'],
    ['load-balancer', String(lb.LoadBalancerId)],
    ['pull-zones'],
  ];
}

function ok(r: CliRun, what: string): void {
  assert.equal(r.code, 0, `${what}: ${r.stderr}`);
}

/** Every string the JSON holds, however deep. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

test('burrow get: table shows visible escapes, json/ndjson escape them and keep the value, csv in a pipe is exact', { timeout: 120_000 }, async () => {
  const runs = (await resourceArgs()).flatMap((r) => ['table', 'json', 'ndjson', 'csv'].map((format) => ({ r, format })));
  // three binaries at a time: the 40 runs one by one take most of a minute on a loaded machine
  const queue = [...runs];
  const results: { r: string[]; format: string; out: CliRun }[] = [];
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) results.push({ ...next, out: await burrow(['get', ...next.r, '-o', next.format]) });
    }),
  );
  assert.equal(results.length, runs.length);
  for (const { r, format, out } of results) {
    const what = `get ${r.join(' ')} -o ${format}`;
    ok(out, what);
    assertNoHostileBytes(out.stderr, `${what} (stderr)`);
    // these tables show only numbers and burrow's own names (of enum values, of limits)
    const showsText = !['shield-zones', 'limits'].includes(r[0]!);
    if (format === 'table') {
      assertNoHostileBytes(out.stdout, what);
      assert.equal(out.stdout.includes(HOSTILE_VISIBLE), showsText, `${what} shows the escapes:\n${out.stdout.slice(0, 400)}`);
    } else if (format === 'csv') {
      assert.equal(out.stdout.includes(HOSTILE), showsText, `${what} into a pipe keeps the data exact`);
    } else {
      assertNoHostileBytes(out.stdout, what);
      const docs =
        format === 'json'
          ? [JSON.parse(out.stdout) as unknown]
          : out.stdout
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as unknown);
      const texts = strings(docs);
      assert.ok(texts.length === 0 || texts.some((t) => t.startsWith(HOSTILE)), `${what}: the values are kept exactly`);
    }
  }
});

test('errors on stderr: the server Message and ErrorKey, get and db list, shown as visible escapes', { timeout: 60_000 }, async () => {
  for (const args of [
    ['get', 'video-libraries'],
    ['get', 'limits', '-o', 'json'],
    ['db', 'list'],
  ]) {
    const r = await burrow(args, { ...hostileEnv, BURROW_BASE_URL: failing.url });
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assertNoHostileBytes(r.stderr, `stderr of burrow ${args.join(' ')}`);
    assert.ok(r.stderr.includes(HOSTILE_VISIBLE), r.stderr);
  }
});

test('burrow logs: text, ndjson and json with hostile records and a hostile zone', { timeout: 60_000 }, async () => {
  const zone = String(emu.info.pullZoneIds[0]);
  for (const format of ['text', 'table', 'ndjson', 'json']) {
    const r = await burrow(['logs', zone, '--since', '10m', '--limit', '50', '-o', format]);
    ok(r, `logs -o ${format}`);
    assert.ok(r.stdout.length > 0, 'records were printed');
    assertNoHostileBytes(r.stdout, `logs -o ${format}`);
    assertNoHostileBytes(r.stderr, `logs -o ${format} (stderr)`);
    if (format === 'text' || format === 'table') assert.ok(r.stdout.includes(HOSTILE_VISIBLE), r.stdout.slice(0, 400));
    else assert.ok(r.stdout.includes('\\u001b]52;c;SFNUSUxF\\u0007\\u001b]0;pwned'), 'JSON keeps the value, escaped');
  }
  // csv into a pipe keeps the data exact, as `get -o csv` does; stderr stays clean
  const csv = await burrow(['logs', zone, '--since', '10m', '--limit', '50', '-o', 'csv']);
  ok(csv, 'logs -o csv');
  assertNoHostileBytes(csv.stderr, 'logs -o csv (stderr)');
  assert.ok(csv.stdout.includes(HOSTILE), 'logs -o csv into a pipe keeps the data exact');
  // v1: a day's file, every line hostile, and one unreadable line whose reason quotes its status field
  const today = new Date();
  const v1Date = `${String(today.getUTCMonth() + 1).padStart(2, '0')}-${String(today.getUTCDate()).padStart(2, '0')}-${String(today.getUTCFullYear() % 100).padStart(2, '0')}`;
  const v1 = await burrow(['logs', zone, '--v1', '--date', v1Date, '--limit', '50']);
  ok(v1, 'logs --v1');
  assertNoHostileBytes(v1.stdout + v1.stderr, 'logs --v1');
  assert.ok(v1.stdout.includes(HOSTILE_VISIBLE), v1.stdout.slice(0, 400));
  assert.match(v1.stderr, /skipped 1 unreadable line .*status "\\x1b\]52;c;/);
});

test('burrow sql: a hostile row in every format, a hostile column name, a trigger RAISE on stderr', { timeout: 60_000 }, async () => {
  const query = `SELECT id, name AS "${HOSTILE.replace(/"/g, '""')}col" FROM hostile`;
  const table = await burrow(['sql', '-e', query]);
  ok(table, 'sql -o table');
  assertNoHostileBytes(table.stdout, 'sql -o table');
  assert.ok(table.stdout.includes(`${HOSTILE_VISIBLE}\\x1b]0;pwned`), table.stdout);

  for (const format of ['json', 'ndjson']) {
    const r = await burrow(['sql', '-o', format, '-e', query]);
    ok(r, `sql -o ${format}`);
    assertNoHostileBytes(r.stdout, `sql -o ${format}`);
    const rows = (
      format === 'json'
        ? JSON.parse(r.stdout)
        : r.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
    ) as Record<string, unknown>[];
    assert.deepEqual(rows, [{ id: 1, [`${HOSTILE}col`]: `${HOSTILE}row` }]);
  }

  const csv = await burrow(['sql', '-o', 'csv', '-e', query]);
  ok(csv, 'sql -o csv');
  assert.equal(csv.stdout, `id,${HOSTILE}col\n1,${HOSTILE}row\n`, 'csv into a pipe keeps the data exact');

  for (const format of ['csv', 'table', 'json']) {
    const app = startBurrow(['sql', '-o', format, '-e', query], { env: envFor(emu), cols: 200, rows: 30 });
    const { exitCode } = await app.exited;
    assert.equal(exitCode, 0, app.screenText());
    assertNoHostileBytes(app.rawOutput(), `sql -o ${format} at a terminal`);
    if (format !== 'json') assert.ok(app.rawOutput().includes(HOSTILE_VISIBLE), app.screenText());
  }

  const raise = await burrow(['sql', '-e', 'DELETE FROM hostile WHERE id = 1']);
  assert.equal(raise.code, 1, raise.stderr);
  assertNoHostileBytes(raise.stderr, 'sql trigger error');
  assert.ok(raise.stderr.includes(HOSTILE_VISIBLE), raise.stderr);
  const still = await db.execute('SELECT count(*) AS n FROM hostile');
  assert.equal(Number(still.rows[0]!.n), 1);
});

test('burrow shield check-spec: a spec file with hostile title, version, paths and schema names', { timeout: 60_000 }, async () => {
  const zones = await api.shield.listAllZones();
  const paid = zones.find((z) => z.planType !== 0)!;
  const file = path.join(dir, 'hostile-spec.json');
  fs.writeFileSync(file, JSON.stringify(hostileSpec()));
  const table = await burrow(['shield', 'check-spec', file, '--zone', String(paid.shieldZoneId)], envFor(emu));
  assert.equal(table.code, 0, table.stderr);
  assertNoHostileBytes(table.stdout + table.stderr, 'check-spec');
  assert.ok(table.stdout.startsWith(`${HOSTILE_VISIBLE}\\x1b]0;pwned`), table.stdout);
  const json = await burrow(['shield', 'check-spec', file, '--zone', String(paid.shieldZoneId), '-o', 'json'], envFor(emu));
  assert.equal(json.code, 0, json.stderr);
  assertNoHostileBytes(json.stdout, 'check-spec -o json');
  assert.ok(
    strings(JSON.parse(json.stdout)).some((s) => s.startsWith(HOSTILE)),
    json.stdout,
  );
});

test('burrow db list with hostile database names and URLs: table escaped, json exact', { timeout: 60_000 }, async () => {
  const table = await burrow(['db', 'list']);
  ok(table, 'db list');
  assertNoHostileBytes(table.stdout + table.stderr, 'db list');
  assert.ok(table.stdout.includes(HOSTILE_VISIBLE), table.stdout);
  const json = await burrow(['db', 'list', '-o', 'json']);
  ok(json, 'db list -o json');
  assertNoHostileBytes(json.stdout, 'db list -o json');
  assert.ok(
    strings(JSON.parse(json.stdout)).some((s) => s.startsWith(HOSTILE)),
    json.stdout,
  );
});

interface OutputCase {
  what: string;
  args: string[];
  format: string;
  env?: Record<string, string>;
  /** Runs until stopped: ctrl-c (SIGINT) once records are out. */
  follow?: boolean;
  /** The output holds outside text (some show only numbers and burrow's own names). */
  showsText?: boolean;
}

async function outputCases(): Promise<OutputCase[]> {
  const [zone, other] = emu.info.pullZoneIds.map(String) as [string, string];
  const paid = (await api.shield.listAllZones()).find((z) => z.planType !== 0)!;
  const spec = path.join(dir, 'hostile-table-spec.json');
  fs.writeFileSync(spec, JSON.stringify(hostileSpec()));
  const from = new Date(Date.now() - 20 * 60_000).toISOString();
  const to = new Date(Date.now() - 60_000).toISOString();
  const query = `SELECT id, name AS "${HOSTILE.replace(/"/g, '""')}col" FROM hostile`;
  const cases: OutputCase[] = [];
  const add = (what: string, args: string[], formats: string[], extra: Partial<OutputCase> = {}) => {
    for (const format of formats) cases.push({ what: `${what} -o ${format}`, args: [...args, '-o', format], format, showsText: true, ...extra });
  };
  add('get video-libraries', ['get', 'video-libraries'], ['table', 'csv', 'json', 'ndjson']);
  add('logs', ['logs', zone, '--since', '10m', '--limit', '40'], ['text', 'table', 'csv', 'ndjson', 'json']);
  add('logs --from --to', ['logs', zone, '--from', from, '--to', to, '--limit', '40'], ['csv', 'text']);
  add('logs, two zones', ['logs', zone, other, '--since', '10m', '--limit', '40'], ['csv', 'text']);
  add('logs --follow', ['logs', zone, '--follow', '--since', '2m', '--limit', '20'], ['csv', 'text', 'ndjson'], { follow: true });
  add('logs --histogram', ['logs', zone, '--since', '10m', '--histogram'], ['table', 'csv', 'json'], { showsText: false });
  add(
    'logs --sql',
    ['logs', zone, '--since', '10m', '--limit', '40', '--sql', 'SELECT user_agent, path FROM logs LIMIT 5'],
    ['table', 'csv', 'json', 'ndjson'],
  );
  add('sql -e', ['sql', '-e', query], ['table', 'csv', 'json', 'ndjson']);
  add('db list', ['db', 'list'], ['table', 'json']);
  add('shield check-spec', ['shield', 'check-spec', spec, '--zone', String(paid.shieldZoneId)], ['table', 'json'], { env: envFor(emu) });
  return cases;
}

/** At a terminal: exit 0 (130 for a follow stopped by ctrl-c), no raw control reached it, and the escapes show. */
async function atTerminal(c: OutputCase): Promise<void> {
  const app = startBurrow(c.args, { env: c.env ?? hostileEnv, cols: 200, rows: 50 });
  if (c.follow) {
    // a record (stderr shares the terminal: a zone's rate-limit message is poisoned too)
    await app.waitFor(/^(\{"timestamp"|\d{4}-\d\d-\d\d).*\\(x1b|u001b)\]52;c;SFNUSUxF/m, 60_000);
    await app.press('ctrl-c');
  }
  const { exitCode } = await app.exited;
  assert.equal(exitCode, c.follow ? 130 : 0, `${c.what} at a terminal:\n${app.screenText()}`);
  assertNoHostileBytes(app.rawOutput(), `${c.what} at a terminal`);
  const json = c.format === 'json' || c.format === 'ndjson';
  if (c.showsText)
    assert.ok(
      app.rawOutput().includes(json ? '\\u001b]52;c;SFNUSUxF' : HOSTILE_VISIBLE),
      `${c.what} at a terminal shows the escapes: ${JSON.stringify(app.rawOutput().slice(0, 600))}`,
    );
}

/** Into a pipe: csv exact and well formed, json the exact values, human formats escaped; stderr clean. */
async function intoPipe(c: OutputCase): Promise<void> {
  let out: CliRun;
  if (c.follow) {
    const run = spawnBurrow(c.args, { env: { ...baseEnv, ...(c.env ?? hostileEnv) }, timeoutMs: 60_000 });
    await until(
      `${c.what}: records`,
      () => run.out().includes(c.format === 'ndjson' ? '\\u001b]52;c;SFNUSUxF' : c.format === 'csv' ? HOSTILE : HOSTILE_VISIBLE),
      60_000,
    );
    run.child.kill('SIGINT');
    out = await run.done;
    assert.equal(out.code, 130, `${c.what}: ${out.stderr}`);
  } else {
    out = await burrow(c.args, c.env ?? hostileEnv);
    ok(out, c.what);
  }
  assertNoHostileBytes(out.stderr, `${c.what} (stderr)`);
  if (c.format === 'csv') {
    const rows = csvRows(out.stdout);
    assert.ok(rows.length > 1, `${c.what}: a header and rows`);
    for (const row of rows) assert.equal(row.length, rows[0]!.length, `${c.what}: every row has the header's cells: ${JSON.stringify(row)}`);
    if (c.showsText)
      assert.ok(
        rows.slice(1).some((r) => r.some((cell) => cell.startsWith(HOSTILE))),
        `${c.what} into a pipe keeps the data exact`,
      );
    return;
  }
  assertNoHostileBytes(out.stdout, c.what);
  if (c.format === 'json' || c.format === 'ndjson') {
    const docs =
      c.format === 'json'
        ? [JSON.parse(out.stdout) as unknown]
        : out.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as unknown);
    if (c.showsText)
      assert.ok(
        strings(docs).some((t) => t.startsWith(HOSTILE)),
        `${c.what}: the values are kept exactly`,
      );
  } else if (c.showsText) assert.ok(out.stdout.includes(HOSTILE_VISIBLE), `${c.what}: ${out.stdout.slice(0, 400)}`);
}

test('every command x format, at a terminal and into a pipe: nothing raw reaches a terminal, a pipe gets the exact data', { timeout: 600_000 }, async () => {
  const cases = await outputCases();
  const jobs = cases.flatMap((c) => [() => atTerminal(c), () => intoPipe(c)]);
  // every combination is tried, and every one that fails is listed
  const failures: string[] = [];
  // three at a time: on a loaded machine one by one takes minutes
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) await job().catch((error: unknown) => failures.push((error as Error).message.split('\n')[0]!));
    }),
  );
  assert.deepEqual(failures, []);
});
