import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { LogEntry } from '../../src/api/logs/entry';
import {
  csvCell,
  csvHeader,
  csvLine,
  defaultExportPath,
  EXPORT_FIELDS,
  ExportExistsError,
  formatOfPath,
  ndjsonLine,
  parseCsv,
  withFormat,
  writeExport,
} from '../../src/log-records/export';
import { logEntry } from '../helpers/log-entry';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-export-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

let seq = 0;
function rec(over: Partial<LogEntry> = {}): LogEntry {
  seq++;
  return logEntry({
    timestamp: new Date(Date.UTC(2026, 7, 8, 12, 0, seq % 60)).toISOString(),
    pullZoneId: 1058,
    requestId: seq.toString(16).padStart(32, '0'),
    cacheStatus: 'HIT',
    bytesSent: 1234,
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'a.example',
    path: '/x?a=1,2',
    url: 'https://a.example/x?a=1,2',
    userAgent: 'Mozilla/5.0 (X11; "quoted")',
    bodyBytesSent: 1000,
    asn: 3320,
    asnOrganization: 'DTAG',
    ...over,
  });
}

test('the CSV header lists every LogEntry field', () => {
  assert.equal(csvHeader(), `${EXPORT_FIELDS.join(',')}\r\n`);
  assert.equal(EXPORT_FIELDS.length, Object.keys(rec()).length);
  assert.deepEqual([...EXPORT_FIELDS].sort(), Object.keys(rec()).sort());
});

test('CSV cells: quoting, nulls empty, formula prefixes defused, a lone "-" kept', () => {
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(42), '42');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell('+1'), "'+1");
  assert.equal(csvCell('@sum'), "'@sum");
  assert.equal(csvCell('-2+3'), "'-2+3");
  assert.equal(csvCell('-'), '-');
});

test('CSV lines read back to the same values (hostile strings included)', () => {
  const hostile = fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', '=', '-', ' ', 'é', '|'), maxLength: 12 });
  fc.assert(
    fc.property(hostile, fc.option(hostile), (ua, ref) => {
      const e = rec({ userAgent: ua, referer: ref });
      const [row] = parseCsv(csvLine(e));
      const back = (v: string) => (/^'[=+@\t\r-]/.test(v) ? v.slice(1) : v);
      assert.equal(back(row![EXPORT_FIELDS.indexOf('userAgent')]!), ua);
      assert.equal(back(row![EXPORT_FIELDS.indexOf('referer')]!), ref ?? '');
      assert.equal(row!.length, EXPORT_FIELDS.length);
    }),
  );
});

test('NDJSON: one object per line with every field; the authorization header masked unless asked', () => {
  const e = rec({ authorizationHeader: 'Bearer abcdefghijklmnop' });
  const parsed = JSON.parse(ndjsonLine(e)) as LogEntry;
  assert.deepEqual(Object.keys(parsed), Object.keys(e));
  assert.notEqual(parsed.authorizationHeader, e.authorizationHeader);
  assert.match(parsed.authorizationHeader!, /mnop$/);
  assert.equal((JSON.parse(ndjsonLine(e, true)) as LogEntry).authorizationHeader, e.authorizationHeader);
  assert.ok(!csvLine(e).includes('abcdefghijklmnop'));
});

test('default names: in the directory, zone and UTC time stamp, extension by format; the format follows the extension', () => {
  const p = defaultExportPath('/tmp/x', '1058', 'csv', Date.UTC(2026, 7, 8, 14, 3, 9));
  assert.equal(p, path.join('/tmp/x', 'burrow-logs-1058-20260808-140309.csv'));
  assert.equal(withFormat(p, 'ndjson'), path.join('/tmp/x', 'burrow-logs-1058-20260808-140309.ndjson'));
  assert.equal(withFormat('/tmp/out', 'csv'), '/tmp/out.csv');
  assert.equal(formatOfPath('a.CSV'), 'csv');
  assert.equal(formatOfPath('a.ndjson'), 'ndjson');
  assert.equal(formatOfPath('a.txt'), 'ndjson');
});

test('writeExport: writes every record, counts them, never replaces a file unless told to', async () => {
  const records = Array.from({ length: 2500 }, () => rec());
  const file = path.join(dir, 'out.ndjson');
  const r = await writeExport(file, records, { format: 'ndjson', chunk: 700 });
  assert.equal(r.records, 2500);
  const text = fs.readFileSync(file, 'utf8');
  assert.equal(r.bytes, Buffer.byteLength(text));
  assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'exported logs are readable by their owner only');
  const lines = text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as LogEntry);
  assert.deepEqual(lines, records);

  await assert.rejects(writeExport(file, [rec()], { format: 'ndjson' }), (e: unknown) => e instanceof ExportExistsError && e.path === file);
  assert.equal(fs.readFileSync(file, 'utf8'), text, 'the existing file is untouched');
  const again = await writeExport(file, records.slice(0, 3), { format: 'csv', overwrite: true });
  assert.equal(again.records, 3);
  const rows = parseCsv(fs.readFileSync(file, 'utf8'));
  assert.deepEqual(rows[0], [...EXPORT_FIELDS]);
  assert.equal(rows.length, 4);
  assert.equal(rows[1]![EXPORT_FIELDS.indexOf('requestId')], records[0]!.requestId);
  assert.equal(rows[2]![EXPORT_FIELDS.indexOf('path')], records[1]!.path);
  assert.equal(rows[3]![EXPORT_FIELDS.indexOf('userAgent')], records[2]!.userAgent);
});

test('writeExport: a failing source leaves no partial file; a missing directory is an error', async () => {
  const file = path.join(dir, 'broken.csv');
  function* bad(): Generator<LogEntry> {
    yield rec();
    throw new Error('source broke');
  }
  await assert.rejects(writeExport(file, bad(), { format: 'csv' }), /source broke/);
  assert.equal(fs.existsSync(file), false);
  await assert.rejects(writeExport(path.join(dir, 'no', 'such', 'x.csv'), [rec()], { format: 'csv' }), /ENOENT/);
});
