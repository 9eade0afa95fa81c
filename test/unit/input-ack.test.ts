import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { INPUT_ACK_OSC, installInputAck } from '../../src/runtime/io';

const ON = { BURROW_TEST: '1', BURROW_INPUT_ACK: '1' };

function terminalOut(isTTY = true) {
  const written: string[] = [];
  return { isTTY, written, write: (s: string) => written.push(s) > 0 };
}

const acks = (written: string[]) => written.map((w) => new RegExp(`^\\x1b\\]${INPUT_ACK_OSC};(\\d+)\\x07$`).exec(w)?.[1]).map(Number);

test('each chunk read, paused or flowing, is acknowledged with its length in bytes, before its readers run', async () => {
  const stdin = new PassThrough();
  stdin.setEncoding('utf8');
  const out = terminalOut();
  installInputAck(stdin, out, ON);
  installInputAck(stdin, out, ON); // once per stream
  const seenByReader: number[] = [];
  // paused mode, as Ink reads
  stdin.write('\x1b');
  await new Promise<void>((resolve) =>
    stdin.once('readable', () => {
      for (let chunk = stdin.read() as string | null; chunk !== null; chunk = stdin.read() as string | null) seenByReader.push(out.written.length);
      resolve();
    }),
  );
  // flowing mode, as readline reads; a character of 4 bytes counts 4
  const flowing = new Promise<void>((resolve) =>
    stdin.on('data', () => {
      seenByReader.push(out.written.length);
      resolve();
    }),
  );
  stdin.write('é🦡');
  await flowing;
  assert.deepEqual(acks(out.written), [1, 6]);
  assert.deepEqual(seenByReader, [1, 2], 'the ack is written before the reader sees the chunk');
});

test('nothing is written without both variables, or when stdout is not a terminal', async () => {
  for (const [env, tty] of [
    [{ BURROW_INPUT_ACK: '1' }, true],
    [{ BURROW_TEST: '1' }, true],
    [ON, false],
  ] as const) {
    const stdin = new PassThrough();
    const out = terminalOut(tty);
    installInputAck(stdin, out, env);
    const read = new Promise((resolve) => stdin.once('data', resolve));
    stdin.write('x');
    assert.equal(String(await read), 'x');
    assert.deepEqual(out.written, [], JSON.stringify({ env, tty }));
  }
});

test('turning raw mode on and off is said too, after it took effect', () => {
  const stdin = Object.assign(new PassThrough(), {
    modes: [] as boolean[],
    setRawMode(mode: boolean) {
      this.modes.push(mode);
      return this;
    },
  });
  const out = terminalOut();
  installInputAck(stdin, out, ON);
  stdin.setRawMode(true);
  stdin.setRawMode(false);
  assert.deepEqual(stdin.modes, [true, false]);
  assert.deepEqual(out.written, [`\x1b]${INPUT_ACK_OSC};raw=1\x07`, `\x1b]${INPUT_ACK_OSC};raw=0\x07`]);
});
