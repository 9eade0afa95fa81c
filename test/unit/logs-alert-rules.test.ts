import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogEntry } from '../../src/api/logs/entry';
import { describeRuleError, parseAlertRule, ruleErrorLine, type AlertRule } from '../../src/log-records/alert-rule';
import { compilePattern } from '../../src/log-records/filter';
import { logEntry } from '../helpers/log-entry';

function entry(over: Partial<LogEntry> = {}): LogEntry {
  return logEntry({
    timestamp: '2026-08-08T12:00:00.000Z',
    requestId: '0'.repeat(32),
    cacheStatus: 'HIT',
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'WA',
    scheme: 'https',
    host: 'shop.example',
    path: '/api/cart?x=1',
    userAgent: 'Mozilla/5.0 curl-ish',
    referer: 'https://search.example/',
    ...over,
  });
}

function rule(text: string): AlertRule {
  const p = parseAlertRule(text);
  assert.ok(p.ok, p.ok ? '' : describeRuleError(text, p.error));
  return p.rule;
}

test('rates, counts and windows: the threshold as records in the window', () => {
  const r = rule('status=5xx rate>2/s over 60s');
  assert.equal(r.measure, 'rate');
  assert.equal(r.comparison, '>');
  assert.equal(r.windowMs, 60_000);
  assert.equal(r.countThreshold, 120);
  assert.equal(r.text, 'status=5xx rate>2/s over 60s');

  const c = rule('  cache=MISS   and country=DE count>500 over 5m ');
  assert.equal(c.text, 'cache=MISS and country=DE count>500 over 5m', 'spaces tidied');
  assert.equal(c.measure, 'count');
  assert.equal(c.countThreshold, 500);
  assert.equal(c.windowMs, 300_000);

  const g = rule('path~^/api rate>=10/s over 30s');
  assert.equal(g.comparison, '>=');
  assert.equal(g.countThreshold, 300);
  assert.equal(rule('rate>30/m over 2m').countThreshold, 60, '30 a minute over 2 minutes');
  assert.equal(rule('rate>3600/h over 10s').countThreshold, 10);
  assert.equal(rule('count>=1 over 1h').windowMs, 3_600_000);
  assert.equal(rule('count>0 over 10s').conditions.length, 0, 'no condition: every record');
});

test('conditions mean what the CLI filters mean', () => {
  const t = (text: string, e: LogEntry) => rule(`${text} count>0 over 10s`).test(e);
  assert.equal(t('status=5xx', entry({ statusCode: 503 })), true);
  assert.equal(t('status=5xx', entry({ statusCode: 404 })), false);
  assert.equal(t('status=5xx,404', entry({ statusCode: 404 })), true, 'codes and classes ORed');
  assert.equal(t('status!=2xx', entry({ statusCode: 200 })), false);
  assert.equal(t('status!=2xx', entry({ statusCode: 301 })), true);
  assert.equal(t('cache=miss', entry({ cacheStatus: 'MISS' })), true, 'cache status in any case');
  assert.equal(t('cache=MISS,BYPASS', entry({ cacheStatus: 'HIT' })), false);
  assert.equal(t('country=de', entry({ countryCode: 'DE' })), true);
  assert.equal(t('edge=WA', entry({ edgeLocation: 'NY' })), false);
  assert.equal(t('ip=10.0.0.1', entry()), true);
  assert.equal(t('url=SHOP.example/api', entry()), true, 'url: substring of host + path, any case');
  assert.equal(t('path=/api', entry()), true);
  assert.equal(t('path=shop', entry()), false, 'path: the path only');
  assert.equal(t('ua=curl', entry()), true);
  assert.equal(t('referer=search.example', entry()), true);
  assert.equal(t('search="nothing cart"', entry()), true, 'search: any token');
  assert.equal(t('path~^/api/', entry()), true);
  assert.equal(t('path~^/img', entry()), false);
  assert.equal(t('ua!~Mozilla', entry()), false);
  assert.equal(t('url~shop\\.example/api', entry()), true);
  assert.equal(t('status=5xx and cache=MISS', entry({ statusCode: 502, cacheStatus: 'MISS' })), true);
  assert.equal(t('status=5xx and cache=MISS', entry({ statusCode: 502, cacheStatus: 'HIT' })), false, 'and: every condition');
});

test('a mistake names the bad token and where it is', () => {
  const bad = (text: string, message: RegExp, token: string) => {
    const p = parseAlertRule(text);
    assert.ok(!p.ok, `${text} should not parse`);
    assert.match(p.error.message, message, text);
    assert.equal(text.slice(p.error.start, p.error.end), token, `${text}: the bad part`);
  };
  bad('status=5x rate>2/s over 60s', /"5x" is not a status code \(100-599\) or a class \(1xx-5xx\)/, '5x');
  bad('cache=MAYBE count>1 over 1m', /"MAYBE" is not a cache status/, 'MAYBE');
  bad('country=Germany count>1 over 1m', /not an ISO 3166 alpha-2 country code/, 'Germany');
  bad('ip=10.0.0 count>1 over 1m', /not an IPv4 or IPv6 address/, '10.0.0');
  bad('colour=red count>1 over 1m', /"colour" is not a field \(cache, status, ip, country, edge, path, url, ua, referer, search\)/, 'colour');
  bad('status~5.. count>1 over 1m', /status takes =/, 'status');
  bad('path~( count>1 over 1m', /invalid regular expression "\("/, '(');
  bad('path~.* count>1 over 1m', /matches an empty text/, '.*');
  bad('status=5xx rate>2 over 60s', /rate> needs a number per second, minute or hour/, 'rate>2');
  bad('status=5xx rate<2/s over 60s', /only > and >= are supported/, 'rate<2/s');
  bad('status=5xx count>1.5 over 60s', /count> needs a whole number/, 'count>1.5');
  bad('status=5xx rate>2/s over 2d', /"2d" is not a window/, '2d');
  bad('status=5xx rate>2/s over 25h', /the window is from 1s to 24h/, '25h');
  bad('status=5xx rate>2/s in 60s', /expected "over"/, 'in');
  bad('status=5xx rate>2/s over 60s now', /unexpected "now" after the window/, 'now');
  bad('status=5xx cache=MISS rate>2/s over 60s', /expected "and" or a threshold/, 'cache=MISS');
  bad('status=5xx and rate>2/s over 60s', /"and" needs a condition after it/, 'rate>2/s');
  bad('status rate>2/s over 60s', /"status" is not a condition: write field=value/, 'status');
  bad('status= rate>2/s over 60s', /status= needs a value/, 'status=');
  bad('ua="curl rate>1/s over 10s', /this quote is not closed/, '"curl rate>1/s over 10s');
  bad('status=5xx', /missing the threshold/, '');
  bad('status=5xx rate>2/s', /missing the window/, '');
  bad('', /an empty rule/, '');
});

test('the error texts: a pointer under the bad part, and one line for a field', () => {
  const text = 'status=5x rate>2/s over 60s';
  const p = parseAlertRule(text);
  assert.ok(!p.ok);
  assert.equal(describeRuleError(text, p.error).split('\n').slice(1).join('\n'), `  ${text}\n         ^^`);
  assert.match(ruleErrorLine(text, p.error), /^at "5x" \(column 8\): "5x" is not a status code/);
});

test('size limits: a value past 1,000 characters is refused pointing at it, a rule past 4,000 as a whole; the message and the echo stay short', () => {
  const value = 'x'.repeat(45_000);
  for (const op of ['=', '~', '!~']) {
    const text = `ua${op}"${value}" count>1 over 1m`;
    const r = parseAlertRule(text);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.error.message, `ua${op}: a value is at most 1,000 characters, this one has 45,000`);
    const pointed = text.slice(r.error.start, r.error.end);
    assert.ok(pointed.includes(value) && pointed.length <= value.length + 2, 'the value is pointed at');
    assert.ok(ruleErrorLine(text, r.error).length < 200);
    assert.ok(describeRuleError(text, r.error).length < 400);
  }
  assert.ok(parseAlertRule(`ua="${'x'.repeat(1_000)}" count>1 over 1m`).ok, 'at the limit: taken');
  const many = Array.from({ length: 8 }, () => `ua~${'y'.repeat(600)}`).join(' and ');
  const long = parseAlertRule(`${many} count>1 over 1m`);
  assert.equal(long.ok, false);
  if (!long.ok) assert.match(long.error.message, /a rule is at most 4,000 characters, this one has 4,\d{3}/);
  const p = compilePattern('z'.repeat(1_001));
  assert.equal(p.ok, false);
  if (!p.ok) assert.match(p.message, /a pattern is at most 1,000 characters, this one has 1,001/);
});
