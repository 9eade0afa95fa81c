import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { envFor, useEmulator } from '../helpers/emulator';

// Bad input through the real binary: every case is refused before any request (the emulator
// counts none), exits 2, and the one-line message says what is allowed.

const emu = await useEmulator({ logRate: 1 });
const home = mkdtempSync(path.join(os.tmpdir(), 'burrow-badin-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, ...envFor(emu) };
const zone = String(emu.info.pullZoneIds[0]);
const spec = path.resolve('test/fixtures/openapi-petstore.yaml');
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

const burrow = (args: string[]) => runBurrow(args, { env, timeoutMs: 15_000 });

/** [arguments, what the message must say]. Every case exits 2 without a request. */
const CASES: [string[], RegExp][] = [
  // burrow get: ids, resources, output formats
  [['get', 'api-guardian', '0'], /shield zone ID must be a positive whole number up to 2147483647 \(got "0"\)/],
  [['get', 'api-guardian', '2147483648'], /up to 2147483647/],
  [['get', 'api-guardian', '1e3'], /positive whole number/],
  [['get', 'api-guardian', '--', '-1'], /positive whole number/],
  [['get', 'load-balancer', 'abc'], /load balancer ID must be a positive whole number/],
  [['get', 'region-settings', 'a/b'], /APP must be an application id: 1 to 64 letters, digits, "-" or "_"/],
  [['get', 'region-settings', 'x'.repeat(65)], /APP must be an application id/],
  [['get', 'region-settings'], /needs APP/],
  [['get', 'nope'], /unknown resource "nope": one of shield-zones, api-guardian/],
  [['get', 'limits', 'extra'], /takes no argument/],
  [['get', 'limits', '-o', 'xml'], /-o xml is not available for get: use table, json, csv, ndjson/],
  [
    ['get', 'limits', '--bogus'],
    /^burrow: unknown option --bogus for burrow get \(burrow get --help lists the options; a value that starts with "-" goes after --\)\n$/,
  ],
  [['get', 'apps', '--output'], /^burrow: --output needs a value \(burrow get --help\)\n$/],
  [['containers', 'regions', 'a', '--dry-run=1'], /^burrow: --dry-run takes no value/],
  // burrow logs: zone, time windows inside the 3-day retention, filters, enums, limits
  [['logs', 'abc'], /PULLZONE must be a numeric pull zone id \(a whole number from 1/],
  [['logs', '0'], /PULLZONE must be a numeric pull zone id/],
  [['logs'], /needs PULLZONE/],
  [['logs', zone, '--since', '4d'], /use a duration like 30s, 15m, 2h or 3d \(more than 0, at most 3d\)/],
  [['logs', zone, '--since', 'soon'], /use a duration like 30s, 15m, 2h or 3d/],
  [['logs', zone, '--since=-5m'], /use a duration like/],
  [['logs', zone, '--from', '2020-01-01T00:00:00Z'], /older than the 3-day log retention/],
  [['logs', zone, '--from', 'yesterday'], /--from "yesterday" is not a time: use 14:05 · 14:05:30 · 2026-11-24 14:05 · 2026-11-24T14:05:30Z · -10m/],
  [['logs', zone, '--from', iso(3_600_000), '--to', iso(7_200_000)], /--from must be before --to/],
  [['logs', zone, '--to', iso(0)], /--to needs --from/],
  [['logs', zone, '--since', '15m', '--from', iso(600_000)], /use either --since or --from\/--to, not both/],
  [['logs', zone, '--status', '999'], /not a status code \(100-599\) or a class \(1xx-5xx\); example: 5xx,404/],
  [['logs', zone, '--status', '6xx'], /not a status code/],
  [['logs', zone, '--cache-status', 'WARM'], /"WARM" is not a cache status \(HIT, MISS, BYPASS, REVALIDATED, STALE, UPDATING, EXPIRED, -\)/],
  [['logs', zone, '--country', 'Germany'], /not an ISO 3166 alpha-2 country code \(example: DE\)/],
  [['logs', zone, '--ip', 'not-an-ip'], /not an IPv4 or IPv6 address/],
  [['logs', zone, '--edge', 'no such edge!'], /not an edge location code/],
  [['logs', zone, '--search', Array.from({ length: 17 }, (_, i) => `t${i}`).join(' ')], /at most 16 search tokens, got 17/],
  [['logs', zone, '--search', 'x'.repeat(129)], /search tokens are at most 128 characters, one has 129/],
  [['logs', zone, '--limit', '0'], /--limit must be a whole number from 1 to/],
  [['logs', zone, '--limit', 'many'], /--limit must be a whole number/],
  [['logs', zone, '--v1'], /--v1 needs --date MM-dd-yy \(UTC day within the 3-day retention: /],
  [['logs', zone, '--v1', '--date', '13-45-26'], /not a date in MM-dd-yy form/],
  [['logs', zone, '-o', 'yaml'], /-o yaml is not available for logs: use ndjson, json, text, table, csv/],
  [['logs', zone, '-o', 'text', '--sql', 'SELECT 1'], /-o text does not go with --sql: use table, csv, json or ndjson/],
  // burrow sql: URLs, files, formats
  [['sql', 'ftp://x/', '-e', 'SELECT 1'], /scheme ftp: is not supported: use libsql:\/\/, https:\/\/ or http:\/\//],
  [['sql', 'https://h.example/?foo=1', '-e', 'SELECT 1'], /unsupported query parameter in the database URL: foo \(only authToken and tls are understood\)/],
  [['sql', 'https://user:pw@h.example/', '-e', 'SELECT 1'], /put the token in \?authToken= or SERVICE_DATABASE_AUTH_TOKEN, not as user:password/],
  [['sql', '/nonexistent/file.sql'], /cannot read \/nonexistent\/file\.sql/],
  [['sql', '-e', 'SELECT 1', '-o', 'xml'], /-o xml is not available for sql: use table, csv, json, ndjson/],
  // burrow db
  [['db', 'nope'], /unknown db command "nope": use burrow db list, burrow db tokens create or burrow db tokens invalidate/],
  [['db', 'tokens', 'frob'], /unknown tokens action "frob": create or invalidate/],
  [['db', 'tokens', 'create', '--expiry', 'soon'], /use 12h, 30d, 1w, 1m \(30 days\), 1y, an RFC 3339 date-time/],
  [['db', 'tokens', 'create', '--expiry', '0d'], /must be positive/],
  [['db', 'tokens', 'create', '--expiry', '99999y'], /too far away: the latest is 9999-12-31T23:59:59Z/],
  [['db', 'tokens', 'create', '--expiry', '2020-01-01T00:00:00Z'], /in the past/],
  [['db', 'tokens', 'create', '--read-only', '--pair'], /do not go together/],
  [['db', 'tokens', 'invalidate'], /stdin is not a terminal, so pass --yes/],
  [['db', 'list', '--expiry', '1d'], /--expiry does not apply to burrow db list/],
  // burrow shield check-spec
  [['shield', 'check-spec'], /needs FILE: the OpenAPI 3 file/],
  [['shield', 'check-spec', spec], /--zone ID is required/],
  [['shield', 'check-spec', spec, '--zone', 'abc'], /--zone must be a positive whole number up to 2147483647/],
  [['shield', 'check-spec', spec, '--zone', '0'], /--zone must be a positive whole number/],
  [['shield', 'check-spec', '/nonexistent.yaml', '--zone', '1'], /no such file: \/nonexistent\.yaml/],
  [['shield', 'nope'], /unknown shield command "nope": check-spec FILE --zone ID, guardian ZONE --set NAME=VALUE, spec upload ZONE FILE/],
  [['shield', 'guardian', '1', '--set', 'isEnabled'], /--set needs NAME=VALUE, got "isEnabled"/],
  [['shield', 'guardian', '1', '--set', 'isEnabled=maybe', '--yes'], /--set isEnabled=maybe: use true\/false \(or on\/off\)/],
  [['shield', 'guardian', '1', '--set', 'isEnabled=on', '--set', 'isEnabled=off'], /--set isEnabled is given twice/],
  [['shield', 'guardian', 'zero', '--set', 'isEnabled=on'], /ZONE must be a positive whole number/],
  [['shield', 'spec', 'upload', '1', '/nonexistent.yaml', '--yes'], /no such file: \/nonexistent\.yaml/],
  [['containers', 'regions', 'app1'], /what to change\? give --allowed, --required or --max-allowed/],
  [['containers', 'regions', 'app1', '--max-allowed', '0'], /--max-allowed must be a whole number of at least 1/],
  [['containers', 'regions', 'app1', '--allowed', 'DE,DE'], /--allowed: DE is listed twice/],
  [['containers', 'regions', 'app1', '--allowed', 'DE'], /stdin is not a terminal/],
  // burrow emulator
  [['emulator', '--port', 'x'], /--port must be a number from 0 to 65533, got "x"/],
  [['emulator', '--port', '70000'], /from 0 to 65533/],
  [['emulator', '--port', '1.5'], /--port must be a whole number/],
  [['emulator', '--seed=-1'], /--seed must be a number from 0 to 4294967295/],
  [['emulator', '--faults', 'bogus=1'], /unknown fault "bogus" \(known: latency, error, reset, malformed, ratelimit\)/],
  [['emulator', '--faults', 'error=2'], /needs a rate between 0 and 1/],
  [['emulator', '--log-rate', 'fast'], /--log-rate must be a number from 0 to 10000/],
  [['emulator', '--clock-start', 'yesterday'], /--clock-start must be an ISO date-time \(2026-03-02T10:00:00Z\) or epoch ms, got "yesterday"/],
  [['emulator', '--ingest-delay', 'soon'], /is not a duration \(examples: 300ms, 20s, 5m\)/],
  [['emulator', '--statement-timeout', '1ms'], /from 10ms to 1h/],
  // global
  [['--base-url', 'not a url', 'get', 'limits'], /--base-url must be an http\(s\) URL/],
  [['--profile', 'nope', 'get', 'limits'], /no profile named "nope"/],
  [['frobnicate'], /unknown command "frobnicate" \(commands: get, logs, ship, sql, db, shield, containers, emulator, completion\)/],
];

test(`${CASES.length} bad inputs through the binary: exit 2, a message saying what is allowed, no request sent`, { timeout: 120_000 }, async () => {
  const count = () => Object.values(emu.faultCounters()).reduce((n, c) => n + c.requests, 0);
  const before = count();
  const problems: string[] = [];
  const queue = [...CASES];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const [args, message] = c;
        const r = await burrow(args);
        const first = r.stderr.split('\n')[0] ?? '';
        if (r.code !== 2) problems.push(`${args.join(' ')}: exit ${r.code}: ${r.stderr.slice(0, 200)}`);
        else if (!/^burrow: /.test(first) || !message.test(r.stderr))
          problems.push(`${args.join(' ')}: message ${JSON.stringify(r.stderr.slice(0, 240))} does not match ${message}`);
        if (/\n\s+at /.test(r.stderr)) problems.push(`${args.join(' ')}: a stack trace`);
        if (r.stdout !== '') problems.push(`${args.join(' ')}: printed to stdout: ${r.stdout.slice(0, 80)}`);
      }
    }),
  );
  assert.deepEqual(problems, []);
  assert.equal(count(), before, 'not one request reached the platform');
});
