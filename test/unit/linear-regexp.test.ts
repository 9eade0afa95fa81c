import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compilePattern, matchRanges } from '../../src/log-records/filter';
import { LinearRegExp } from '../../src/log-records/linear-regexp';
import { parseAlertRule } from '../../src/log-records/alert-rule';
import type { LogEntry } from '../../src/api/logs/entry';

// Patterns typed by a person run over text strangers choose: matching is RE2's (linear in the
// text), never JavaScript's backtracking. Each test here would not finish with a JavaScript RegExp.

const CATASTROPHIC = 'a'.repeat(50) + 'b';

test('the local pattern (/) is a LinearRegExp, and a catastrophic pattern over hostile text completes', () => {
  const p = compilePattern('(a+)+$');
  assert.ok(p.ok);
  assert.ok(p.test instanceof LinearRegExp);
  assert.ok(p.all instanceof LinearRegExp);
  assert.equal(p.test.test(CATASTROPHIC), false);
  assert.deepEqual(matchRanges(p.all, CATASTROPHIC), []);
  assert.equal(p.test.test('a'.repeat(50)), true);
  // issue 28's case: user agents of `bot ` 2,000 times, pattern bot.*crawl
  const bot = compilePattern('bot.*crawl');
  assert.ok(bot.ok && bot.test instanceof LinearRegExp);
  assert.equal(bot.test.test('bot '.repeat(2000)), false);
  assert.equal(bot.test.test(`${'bot '.repeat(2000)}crawl`), true);
});

test("an alert rule's ua~ runs on the linear engine", () => {
  const rule = parseAlertRule('ua~(a+)+$ count>1 over 1m');
  if (!rule.ok) assert.fail(rule.error.message);
  const entry = { userAgent: CATASTROPHIC } as LogEntry;
  assert.equal(rule.rule.test(entry), false);
  assert.equal(rule.rule.test({ userAgent: 'aaaa' } as LogEntry), true);
});

test('what RE2 cannot do is refused with a message naming it', () => {
  for (const [source, named] of [
    ['a(?=b)', /lookahead/],
    ['(?<!x)y', /lookbehind/],
    ['(a)\\1', /backreferences/],
    ['(?<n>a)\\k<n>', /backreferences/],
  ] as const) {
    const p = compilePattern(source);
    assert.equal(p.ok, false, source);
    assert.match(p.ok ? '' : p.message, named, source);
    assert.match(p.ok ? '' : p.message, /linear time/, source);
  }
  const bad = compilePattern('a(');
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? '' : bad.message, /invalid regular expression/);
});

test('the same matches as JavaScript for the patterns both engines take: test, exec with lastIndex, replace, split, matchAll', () => {
  const patterns = ['a+b', '^x', 'y$', '[0-9]{2,3}', '(ab|cd)+', '\\bfoo\\b', 'b(o)(t)?', 'HIT|miss', '\\d+\\.\\d+', '(?<word>[a-z]+)'];
  const text = fc
    .array(fc.constantFrom('a', 'b', 'c', 'd', 'x', 'y', 'o', 't', 'f', ' ', '1', '2', '.', 'H', 'I', 'T', 'é', '😀', '\n'), { maxLength: 30 })
    .map((cs) => cs.join(''));
  fc.assert(
    fc.property(fc.constantFrom(...patterns), fc.constantFrom('', 'i', 'g', 'gi', 'm', 's'), text, (source, flags, s) => {
      const js = new RegExp(source, flags);
      const re2 = new LinearRegExp(source, flags);
      assert.equal(re2.test(s), js.test(s));
      js.lastIndex = 0;
      re2.lastIndex = 0;
      assert.deepEqual(
        [...s.matchAll(new RegExp(source, `${flags.replace('g', '')}g`))].map((m) => [m.index, [...m]]),
        [...s.matchAll(new LinearRegExp(source, `${flags.replace('g', '')}g`))].map((m) => [m.index, [...m]]),
      );
      assert.equal(s.replace(re2, '<$&>'), s.replace(js, '<$&>'));
      assert.deepEqual(s.split(new LinearRegExp(source, flags)), s.split(new RegExp(source, flags)));
      const je = new RegExp(source, flags).exec(s);
      const le = new LinearRegExp(source, flags).exec(s);
      assert.equal(le?.index, je?.index);
      assert.deepEqual(le?.groups, je?.groups);
    }),
    { numRuns: 500 },
  );
});

test("only patterns whose backtracking is bounded keep JavaScript's matcher; every repetition goes to RE2", () => {
  for (const source of ['wp-login|\\.php', 'HIT|de', '5\\d\\d|timeout', '[0-9a-f]{3}ff', '\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}', 'curl/[78]\\.']) {
    assert.equal(new LinearRegExp(source, 'i').nativeIsBounded, true, source);
  }
  const choices = '(a|a)'.repeat(30);
  for (const source of ['bot.*crawl', '(a+)+$', 'a*', 'x{2,}', '(ab){3}', `${choices}b`, 'a?'.repeat(30) + 'a'.repeat(30), '[*+]+', '\\d{1,1000}']) {
    assert.equal(new LinearRegExp(source, 'i').nativeIsBounded, false, source);
  }
  // the exponential cases of JavaScript's matcher end at once here
  assert.equal(new LinearRegExp(`${choices}b`).test('a'.repeat(30)), false);
  assert.equal(new LinearRegExp('a?'.repeat(30) + 'a'.repeat(30)).test('a'.repeat(30)), true);
});

test('lookarounds and backreferences are found outside classes and escapes only', () => {
  for (const source of ['\\(?=x', '[(?=]y', '[\\1]', 'a\\\\b']) assert.ok(compilePattern(source).ok, source);
  for (const source of ['a+(?=b)', 'x*\\1', '(?<!a)b']) assert.equal(compilePattern(source).ok, false, source);
});
