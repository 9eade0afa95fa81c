import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  terminalSafeOutput,
  hasTerminalControls,
  jsonTerminalSafe,
  terminalSafe,
  terminalSafeKeepingStyles,
  terminalSafeLines,
} from '../../src/text/terminal-safe';

// What a terminal would act on: C0, DEL, C1, and the bidi overrides/isolates that reorder a line.
// eslint-disable-next-line no-control-regex
const ACTED_ON = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const ACTED_ON_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const unsafeChar = fc
  .oneof(
    fc.integer({ min: 0, max: 0x1f }),
    fc.constant(0x7f),
    fc.integer({ min: 0x80, max: 0x9f }),
    fc.integer({ min: 0x202a, max: 0x202e }),
    fc.integer({ min: 0x2066, max: 0x2069 }),
  )
  .map((c) => String.fromCharCode(c));
const payload = fc.constantFrom('\x1b]52;c;aGFja2Vk\x07', '\x1b]0;pwned\x07', '\x1b[2J', '\x1b[H', '\u202e', '\x9b2J', '\x9d0;t\x9c', '\x1bP+q\x1b\\');
/** Text with hostile characters spread through it: any string, with unsafe characters and whole sequences mixed in. */
const hostile = fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.string(), unsafeChar, payload), { maxLength: 12 }).map((parts) => parts.join(''));
/** Text with nothing to escape. */
const clean = fc.string({ unit: 'binary' }).filter((s) => !ACTED_ON.test(s));

test('terminalSafe: nothing a terminal acts on survives, whatever the input', () => {
  fc.assert(
    fc.property(hostile, (s) => {
      const out = terminalSafe(s);
      assert.ok(!ACTED_ON.test(out), JSON.stringify(out));
      assert.equal(hasTerminalControls(out), false);
    }),
    { numRuns: 2000 },
  );
});

test('terminalSafe and terminalSafeLines return clean text unchanged, the same string', () => {
  fc.assert(
    fc.property(clean, (s) => {
      assert.equal(terminalSafe(s), s);
      assert.equal(terminalSafeLines(s), s);
      assert.equal(terminalSafeKeepingStyles(s), s);
    }),
    { numRuns: 2000 },
  );
});

test('escaping is idempotent and keeps every other character in place', () => {
  fc.assert(
    fc.property(hostile, (s) => {
      const once = terminalSafe(s);
      assert.equal(terminalSafe(once), once);
      // removing the escapes gives back the input with each unsafe character removed; the input's
      // own backslashes become slashes first, or a literal "\\" before "xa0" would read as an escape
      const plain = s.replaceAll('\\', '/');
      const stripped = terminalSafe(plain).replace(/\\x[0-9a-f]{2}|\\u20(?:2[a-e]|6[6-9])/g, '');
      assert.equal(stripped, plain.replace(new RegExp(ACTED_ON.source, 'g'), ''));
    }),
    { numRuns: 1000 },
  );
});

test('the escapes are visible: \\x1b, \\x9b, \\u202e', () => {
  assert.equal(terminalSafe('a\x1b]52;c;aGk=\x07b'), 'a\\x1b]52;c;aGk=\\x07b');
  assert.equal(terminalSafe('\x1b[2J\x9b2J'), '\\x1b[2J\\x9b2J');
  assert.equal(terminalSafe('abc\u202edef\u2066'), 'abc\\u202edef\\u2066');
  assert.equal(terminalSafe('a\nb\tc\rd\x7f'), 'a\\x0ab\\x09c\\x0dd\\x7f');
  assert.equal(terminalSafeLines('a\nb\tc\rd'), 'a\nb\tc\\x0dd');
});

test('terminalSafeLines keeps newlines and tabs only', () => {
  fc.assert(
    fc.property(hostile, (s) => {
      const out = terminalSafeLines(s);
      assert.ok(!ACTED_ON_BUT_LINES.test(out), JSON.stringify(out));
      assert.equal(out.split('\n').length, s.split('\n').length);
    }),
    { numRuns: 1000 },
  );
});

test('terminalSafeKeepingStyles lets colour codes through and nothing else', () => {
  assert.equal(terminalSafeKeepingStyles('\x1b[7m\x1b[38;5;2mok\x1b[39m\x1b[27m'), '\x1b[7m\x1b[38;5;2mok\x1b[39m\x1b[27m');
  assert.equal(terminalSafeKeepingStyles('a\x1b]0;t\x07\x1b[2J\x1b[1;1H\t\u202e\nb'), 'a\\x1b]0;t\\x07\\x1b[2J\\x1b[1;1H\\x09\\u202e\nb');
  fc.assert(
    fc.property(hostile, (s) => {
      // once the SGR sequences are taken out, nothing a terminal acts on is left but newlines
      // eslint-disable-next-line no-control-regex
      const rest = terminalSafeKeepingStyles(s).replace(/\u001b\[[0-9;:]*m/g, '');
      assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(rest), JSON.stringify(rest));
    }),
    { numRuns: 1000 },
  );
});

test('jsonTerminalSafe: the same JSON value, with no DEL, C1 or bidi character left raw', () => {
  fc.assert(
    fc.property(fc.jsonValue(), hostile, (v, s) => {
      const json = JSON.stringify({ v, s });
      const out = jsonTerminalSafe(json);
      assert.ok(!ACTED_ON.test(out), out);
      assert.deepEqual(JSON.parse(out), JSON.parse(json));
    }),
    { numRuns: 1000 },
  );
  assert.equal(jsonTerminalSafe(JSON.stringify('\x9b\u202e\x7f')), '"\\u009b\\u202e\\u007f"');
  const plain = JSON.stringify({ a: 'naïve 日本 ✓' });
  assert.equal(jsonTerminalSafe(plain), plain);
});

test('terminalSafeOutput: newlines, tabs and CRLF kept, a lone CR and every other control escaped', () => {
  const text = 'name,"line\nbreak"\x1b]52;c;eA==\x07\tx\r\n';
  assert.equal(terminalSafeOutput(text), 'name,"line\nbreak"\\x1b]52;c;eA==\\x07\tx\r\n');
  assert.equal(terminalSafeOutput('over\rwrite\r\n'), 'over\\x0dwrite\r\n');
  assert.equal(terminalSafeOutput('\u202e\x9b2J'), '\\u202e\\x9b2J');
});
