import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  clipboardRoute,
  clipboardSequence,
  clipboardWrite,
  copyStatus,
  OSC52_MAX_BYTES,
  OSC52_MAX_TEXT_BYTES,
  sequenceLength,
} from '../../src/clipboard/osc52';
import { parseTmuxOptions } from '../../src/clipboard/tmux';

const TMUX = { TMUX: '/tmp/tmux-1000/default,1,0' };
const PASSTHROUGH_ONLY = { setClipboard: 'external', allowPassthrough: true };

test('the size known before encoding is the size of the sequence that would be sent (plain and tmux)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.boolean(), (text, inTmux) => {
      const env = inTmux ? TMUX : {};
      const route = clipboardRoute(env, PASSTHROUGH_ONLY);
      const sequence = clipboardSequence(text, route);
      assert.equal(sequenceLength(Buffer.byteLength(text), route), Buffer.byteLength(sequence));
      const r = clipboardWrite(text, env, PASSTHROUGH_ONLY);
      assert.ok(r.ok);
      assert.equal(r.sequence, sequence);
      assert.equal(r.route, inTmux ? 'tmux-passthrough' : 'osc52');
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
  assert.ok(!over.ok && over.reason === 'too-large' && over.sequenceBytes > OSC52_MAX_BYTES && over.bytes === OSC52_MAX_TEXT_BYTES + 1);
  // the tmux passthrough wraps the sequence: the same text no longer fits
  assert.equal(clipboardWrite(fits, TMUX, PASSTHROUGH_ONLY).ok, false);
  assert.equal(clipboardWrite(fits, TMUX, { setClipboard: 'on', allowPassthrough: false }).ok, true);
  // bytes of UTF-8 count, not characters
  const wide = 'ž'.repeat(Math.floor(OSC52_MAX_TEXT_BYTES / 2) + 1);
  assert.equal(clipboardWrite(wide, {}).ok, false);
});

test('the status line says copied (and through tmux), or not copied with the size and the limit', () => {
  assert.deepEqual(copyStatus('ApiKey', clipboardWrite('k', {})), { text: 'copied ApiKey to the clipboard (OSC 52)', level: 'info' });
  assert.deepEqual(copyStatus('ApiKey', clipboardWrite('k', TMUX, PASSTHROUGH_ONLY)), { text: 'copied ApiKey (OSC 52 via tmux passthrough)', level: 'info' });
  assert.deepEqual(copyStatus('ApiKey', clipboardWrite('k', TMUX, null)), { text: 'sent ApiKey (OSC 52); tmux needs set-clipboard on', level: 'warn' });
  assert.deepEqual(copyStatus('ApiKey', clipboardWrite('k', { STY: '123.pts-0' })), { text: 'sent ApiKey (OSC 52); GNU screen may drop it', level: 'warn' });
  const refused = copyStatus('CustomHTML', clipboardWrite('<p>'.repeat(40_000), {}));
  assert.equal(refused.level, 'warn');
  assert.equal(refused.text, 'not copied: CustomHTML is 120 kB, over the 75 kB OSC 52 limit');
});

test('tmux routes: set-clipboard on takes a plain OSC 52; passthrough only when allowed; else nothing is sent', () => {
  assert.equal(clipboardRoute(TMUX, { setClipboard: 'on', allowPassthrough: true }), 'tmux');
  assert.equal(clipboardRoute(TMUX, PASSTHROUGH_ONLY), 'tmux-passthrough');
  assert.equal(clipboardRoute(TMUX, { setClipboard: 'external', allowPassthrough: false }), 'tmux-closed');
  assert.equal(clipboardRoute(TMUX, null), 'tmux-unknown');
  const plain = clipboardWrite('k', TMUX, { setClipboard: 'on', allowPassthrough: false });
  assert.ok(plain.ok && plain.sequence === '\x1b]52;c;aw==\x07');
  const closed = clipboardWrite('k', TMUX, { setClipboard: 'off', allowPassthrough: false });
  assert.deepEqual(closed, { ok: false, reason: 'tmux-closed', setClipboard: 'off' });
  assert.deepEqual(parseTmuxOptions('on|0\n'), { setClipboard: 'on', allowPassthrough: false });
  assert.deepEqual(parseTmuxOptions('external|all\n'), { setClipboard: 'external', allowPassthrough: true });
  assert.equal(parseTmuxOptions('no server running'), null);
  assert.deepEqual(parseTmuxOptions('external|1\n'), { setClipboard: 'external', allowPassthrough: true });
});
