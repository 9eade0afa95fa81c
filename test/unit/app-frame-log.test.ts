import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createFrameLog } from '../../src/app/frame-log';

test('BURROW_FRAME_LOG unset: no frame log, nothing to wrap', () => {
  assert.equal(createFrameLog(undefined), null);
  assert.equal(createFrameLog(''), null);
});

test('the frame log notes keys as Ink reads them, renders and frame writes, in order, with epoch times', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-frame-log-'));
  try {
    const file = path.join(dir, 'frames.log');
    const log = createFrameLog(file)!;
    const input = new PassThrough() as unknown as NodeJS.ReadStream;
    const stdin = log.stdin(input);
    const written: unknown[] = [];
    const write = log.write((chunk: unknown) => {
      written.push(chunk);
      return true;
    });
    const before = Date.now();
    (input as unknown as PassThrough).write('j');
    assert.equal(String(stdin.read()), 'j', 'read() still gives the bytes');
    assert.equal(stdin.read(), null);
    log.onRender({ renderTime: 3.25 });
    assert.equal(write('frame'), true);
    log.flush();
    assert.deepEqual(written, ['frame'], 'writes go through unchanged');
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(
      lines.map((l) => l[0]),
      ['key', 'render', 'write'],
    );
    assert.equal(lines[0]![2], '"j"');
    assert.equal(lines[1]![2], '3.250');
    assert.equal(lines[2]![2], '5');
    const times = lines.map((l) => Number(l[1]));
    assert.ok(
      times.every((t) => t >= before - 5 && t <= Date.now() + 5),
      'epoch milliseconds',
    );
    assert.ok(times[0]! <= times[1]! && times[1]! <= times[2]!, 'in order');
    assert.equal(typeof stdin.setEncoding, 'function', 'everything else is the real stream');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
