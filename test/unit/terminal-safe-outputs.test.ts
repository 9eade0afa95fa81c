import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import stringWidth from 'string-width';
import { fitCells } from '../../src/text/cells';
import { fitLeft } from '../../src/text/fit';
import { formatRecords } from '../../src/commands/output';
import { ResultPrinter, type SqlOutputFormat } from '../../src/commands/sql-output';
import { ApiError } from '../../src/api/errors';
import { terminalSafeStream } from '../../src/runtime/terminal-output';

// The places outside text becomes terminal text, one by one, without the console's Ink net under
// them: each must escape on its own.

const EVIL = 'a\x1b]0;t\x07\x1b[6m\u202eb\x9b';
const SHOWN = 'a\\x1b]0;t\\x07\\x1b[6m\\u202eb\\x9b';
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('fit helpers (every Table cell, header, breadcrumb, status line): escaped, then cut to the exact width', () => {
  assert.equal(fitCells(EVIL, 40), SHOWN.padEnd(40));
  const cut = fitCells(EVIL, 10);
  assert.equal(stringWidth(cut), 10);
  assert.equal(cut, 'a\\x1b]0;t…');
  assert.equal(fitLeft(`home › ${EVIL}`, 12), `…${SHOWN.slice(-11)}`);
  assert.equal(fitCells('tab\there\nnext', 20), 'tab here next       ', 'layout whitespace stays a space');
});

test('burrow get formats: table escaped, json escapes C1 and bidi, csv exact (the terminal stream escapes it)', () => {
  const records = [{ name: EVIL, n: 1 }];
  const columns = [{ header: 'NAME', value: (r: { name: string }) => r.name }];
  const table = formatRecords({ format: 'table', records, columns });
  assert.equal(table, `NAME\n${SHOWN}\n`);
  for (const format of ['json', 'ndjson'] as const) {
    const out = formatRecords({ format, records, columns });
    assert.ok(!RAW.test(out.replace(/\n/g, '')), out);
    assert.deepEqual(JSON.parse(out), format === 'json' ? records : records[0]);
  }
  assert.equal(formatRecords({ format: 'csv', records, columns }), `NAME\n${EVIL}\n`);
});

async function printed(format: SqlOutputFormat, tty: boolean): Promise<string> {
  const out = Object.assign(new PassThrough(), { isTTY: tty });
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  // the command's stream, as cli.ts gives it: sanitised at a terminal
  const printer = new ResultPrinter(terminalSafeStream(out), format, false);
  await printer.result({ columns: [EVIL], decltypes: [null], rows: [[EVIL]], rowsAffected: 0, lastInsertRowid: null, durationMs: 1 });
  await printer.end();
  return text;
}

test('burrow sql formats: table escaped, json/ndjson keep the value with \\u escapes, csv exact unless at a terminal', async () => {
  assert.equal(await printed('table', false), `${SHOWN}\n${SHOWN}\n`);
  assert.equal(await printed('csv', false), `${EVIL}\n${EVIL}\n`);
  assert.equal(await printed('csv', true), `${SHOWN}\n${SHOWN}\n`);
  for (const format of ['json', 'ndjson'] as const) {
    const out = await printed(format, false);
    assert.ok(!RAW.test(out.replace(/\n/g, '')), out);
    const rows = (format === 'json' ? JSON.parse(out) : [JSON.parse(out)]) as Record<string, unknown>[];
    assert.deepEqual(rows, [{ [EVIL]: EVIL }]);
  }
});

test('ApiError: a server Message, errorKey and field errors are terminal-safe wherever the error is shown', () => {
  const e = new ApiError({ kind: 'http', status: 400, message: `400 Bad Request ${EVIL}`, code: EVIL, fieldErrors: [{ field: EVIL, message: EVIL }] });
  assert.equal(e.message, `400 Bad Request ${SHOWN}`);
  assert.equal(e.code, SHOWN);
  assert.deepEqual(e.fieldErrors, [{ field: SHOWN, message: SHOWN }]);
});
