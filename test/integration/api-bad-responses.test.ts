import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';

// A loopback "platform" that answers every route wrongly: HTML pages, empty 200s, truncated JSON,
// JSON of the wrong shape, a proxy's 502 page. `burrow get` for every resource must print one
// readable line on stderr and exit 1: no stack trace, no "unexpected error", nothing on stdout.

type Mode = 'html' | 'empty' | 'truncated' | 'wrong-shape' | 'json-null' | 'array-of-junk' | 'proxy-502';
const BODIES: Record<Mode, [number, string, string]> = {
  html: [200, 'text/html; charset=utf-8', '<!DOCTYPE html><html><head><title>Sign in - Corporate Portal</title></head><body><form>...</form></body></html>'],
  empty: [200, 'application/json', ''],
  truncated: [200, 'application/json', '{"Items": [{"Id": 1, "Name": "trunc'],
  'wrong-shape': [200, 'application/json', '{"unexpected": true, "data": "not what you think", "Items": 7}'],
  'json-null': [200, 'application/json', 'null'],
  'array-of-junk': [200, 'application/json', '[1, "two", null, {"three": 3}]'],
  'proxy-502': [
    502,
    'text/html',
    '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
  ],
};
const RESOURCES: string[][] = [
  ['get', 'shield-zones'],
  ['get', 'api-guardian', '42'],
  ['get', 'limits'],
  ['get', 'apps'],
  ['get', 'region-settings', 'app-1'],
  ['get', 'regions'],
  ['get', 'video-libraries'],
  ['get', 'load-balancers'],
  ['get', 'load-balancer', '7'],
  ['get', 'pull-zones'],
  ['db', 'list'],
  ['logs', '1001', '--since', '1m'],
];

let mode: Mode = 'html';
let requests = 0;
const server = http.createServer((req, res) => {
  requests++;
  req.resume();
  const [status, type, body] = BODIES[mode];
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const home = mkdtempSync(path.join(os.tmpdir(), 'burrow-bad-'));
after(() => {
  server.close();
  rmSync(home, { recursive: true, force: true });
});

const burrow = (args: string[]) =>
  runBurrow(args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_CONFIG_HOME: home,
      BURROW_API_KEY: 'test-key-0123456789',
      BURROW_BASE_URL: base,
      BURROW_LOGGING_URL: base,
    },
  });

async function pool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

for (const m of Object.keys(BODIES) as Mode[]) {
  test(`every burrow get (and db list, logs) against a platform answering "${m}": one readable line, exit 1`, { timeout: 60_000 }, async () => {
    mode = m;
    const problems: string[] = [];
    const firstLines: string[] = [];
    // every command meets the four main kinds; the rarer kinds (and the 502, retried with backoff) a sample
    const resources = ['html', 'empty', 'truncated', 'wrong-shape'].includes(m)
      ? RESOURCES
      : RESOURCES.filter((_, i) => i % 4 === Object.keys(BODIES).indexOf(m) % 4);
    await pool(resources, 4, async (args) => {
      const r = await burrow([...args, '-o', 'json']);
      const lines = r.stderr.trimEnd().split('\n');
      const what = `${args.join(' ')}: exit ${r.code}, stderr ${JSON.stringify(r.stderr.slice(0, 300))}`;
      if (r.code !== 1) problems.push(what);
      if (lines.length !== 1 || !/^burrow: \S/.test(lines[0]!)) problems.push(`not one line: ${what}`);
      if (/\n\s+at |unexpected error|TypeError|SyntaxError/.test(r.stderr)) problems.push(`a crash, not a message: ${what}`);
      if (r.stdout !== '') problems.push(`stdout not empty: ${args.join(' ')}: ${r.stdout.slice(0, 100)}`);
      firstLines.push(lines[0]!);
    });
    assert.deepEqual(problems, []);
    // and the line says what went wrong, in words a user can act on
    const expected: Record<Mode, RegExp> = {
      html: /HTML page/,
      empty: /empty body|not JSON/,
      truncated: /not JSON/,
      'wrong-shape': /unexpected answer/,
      'json-null': /unexpected answer/,
      'array-of-junk': /unexpected answer/,
      'proxy-502': /502 Bad Gateway.*HTML page \("502 Bad Gateway"\)/,
    };
    for (const line of firstLines) assert.match(line, expected[m], line);
  });
}

test('the fake platform was asked (the errors came from answers, not from refusing early)', () => {
  assert.ok(requests >= RESOURCES.length * 4);
});
