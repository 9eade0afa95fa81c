import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { commandIo, terminalSafeStream } from '../../src/runtime/terminal-output';
import type { Io } from '../../src/runtime/io';

// The one writer of every command's output (cli.ts gives each command commandIo(io)): at a
// terminal no write can put a raw control on the screen, whatever made it; in a pipe the bytes
// are exact and the stream is the process's own.

const EVIL = '\x1b]52;c;SFNUSUxF\x07\x1b]0;pwned\x07\x1b[2J\u202e\x9b2J\x9d0;c1\x9c';
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

function sink(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY, columns: 120 });
  const chunks: Buffer[] = [];
  stream.on('data', (d: Buffer) => chunks.push(d));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

test('a pipe gets the stream itself: exact bytes', () => {
  const { stream } = sink(false);
  assert.equal(terminalSafeStream(stream), stream);
});

test('at a terminal every write is escaped: strings, buffers, UTF-8 split across writes, CRLF split across writes', async () => {
  const { stream, text } = sink(true);
  const out = terminalSafeStream(stream);
  assert.equal(out.isTTY, true);
  assert.equal(out.columns, 120);
  out.write(`a,${EVIL}\r\n`);
  out.write(Buffer.from(`b${EVIL}`));
  const snow = Buffer.from('é☃\r\n');
  out.write(snow.subarray(0, 2));
  out.write(snow.subarray(2, 5));
  out.write(snow.subarray(5));
  out.write('lone\r');
  out.write('x\n');
  await new Promise<void>((resolve) => out.write('', () => resolve()));
  const shown = text();
  assert.doesNotMatch(shown, RAW);
  assert.ok(shown.startsWith('a,\\x1b]52;c;SFNUSUxF\\x07\\x1b]0;pwned\\x07\\x1b[2J\\u202e\\x9b2J\\x9d0;c1\\x9c\r\nb\\x1b]52;'), shown);
  assert.ok(shown.endsWith('é☃\r\nlone\\x0dx\n'), shown);
});

test('end() and events go to the real stream', async () => {
  const { stream, text } = sink(true);
  const out = terminalSafeStream(stream);
  let drained = false;
  out.once('drain', () => (drained = true));
  stream.emit('drain');
  assert.equal(drained, true);
  await new Promise<void>((resolve) => out.end(`z${EVIL}`, () => resolve()));
  assert.doesNotMatch(text(), RAW);
  assert.ok(text().startsWith('z\\x1b]52;'));
});

test('commandIo: stdout and stderr sanitised at a terminal, stdin and env untouched', () => {
  const out = sink(true);
  const err = sink(true);
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const io: Io = { stdout: out.stream, stderr: err.stream, stdin, env: { A: '1' } };
  const safe = commandIo(io);
  assert.notEqual(safe.stdout, out.stream);
  assert.notEqual(safe.stderr, err.stream);
  assert.equal(safe.stdin, stdin);
  assert.equal(safe.env, io.env);
  safe.stderr.write(`burrow: ${EVIL}\n`);
  assert.doesNotMatch(err.text(), RAW);
});
