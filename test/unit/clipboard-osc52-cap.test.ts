import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clipboardSequence, clipboardWrite, copyStatus, OSC52_MAX_BYTES, OSC52_MAX_TEXT_BYTES, sequenceLength } from '../../src/clipboard/osc52';

const TMUX = { TMUX: '/tmp/tmux-1000/default,1,0' };

test('the size known before encoding is the size of the sequence that would be sent (plain and tmux)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.boolean(), (text, inTmux) => {
      const env = inTmux ? TMUX : {};
      const sequence = clipboardSequence(text, env);
      assert.equal(sequenceLength(Buffer.byteLength(text), env), Buffer.byteLength(sequence));
      const r = clipboardWrite(text, env);
      assert.ok(r.ok);
      assert.equal(r.sequence, sequence);
      assert.equal(r.via, inTmux ? 'osc52-tmux' : 'osc52');
    }),
  );
});

test('at the cap a copy goes out; one byte of text past it is refused and nothing is encoded', () => {
  const fits = 'a'.repeat(OSC52_MAX_TEXT_BYTES);
  const ok = clipboardWrite(fits, {});
  assert.ok(ok.ok);
  assert.ok(Buffer.byteLength(ok.sequence) <= OSC52_MAX_BYTES);
  assert.ok(OSC52_MAX_BYTES - Buffer.byteLength(ok.sequence) < 4, 'the cap is used up to the last base64 group');
  const over = clipboardWrite(fits + 'a', {});
  assert.equal(over.ok, false);
  assert.ok(!over.ok && over.sequenceBytes > OSC52_MAX_BYTES && over.bytes === OSC52_MAX_TEXT_BYTES + 1);
  // tmux wraps the sequence: the same text no longer fits
  assert.equal(clipboardWrite(fits, TMUX).ok, false);
  // bytes of UTF-8 count, not characters
  const wide = 'ž'.repeat(Math.floor(OSC52_MAX_TEXT_BYTES / 2) + 1);
  assert.equal(clipboardWrite(wide, {}).ok, false);
});

test('the status line says copied (and through tmux), or not copied with the size and the limit', () => {
  assert.deepEqual(copyStatus('ApiKey', clipboardWrite('k', {})), { text: 'copied ApiKey to the clipboard (OSC 52)', level: 'info' });
  assert.deepEqual(copyStatus('ApiKey', clipboardWrite('k', TMUX)), { text: 'copied ApiKey to the clipboard (OSC 52 through tmux)', level: 'info' });
  const refused = copyStatus('CustomHTML', clipboardWrite('<p>'.repeat(40_000), {}));
  assert.equal(refused.level, 'warn');
  assert.equal(refused.text, 'not copied: CustomHTML is 120 kB, over the 75 kB OSC 52 limit');
});
