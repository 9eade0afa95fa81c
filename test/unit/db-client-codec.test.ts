import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDatabaseUrl, tokenAccess } from '../../src/api/database/url';
import { decodeValue, encodeArg, valueJson, valueText } from '../../src/api/database/values';
import { redact } from '../../src/config/redact';
import { ApiError } from '../../src/api/errors';
import { sameDatabaseUrl } from '../../src/api/database-management';
import { parseExpiry } from '../../src/commands/db';
import { UsageError } from '../../src/commands/types';

test('database URLs: libsql:// becomes https, ?authToken= is used, stripped and redacted', () => {
  const t = parseDatabaseUrl('libsql://01KKPNWQQ846P1RP4HTN1MWQ1A-wa-admin-prod.lite.bunnydb.net/?authToken=secret-token-123456', 'env-token-abcdef');
  assert.equal(t.baseUrl, 'https://01KKPNWQQ846P1RP4HTN1MWQ1A-wa-admin-prod.lite.bunnydb.net/');
  assert.equal(t.authToken, 'secret-token-123456');
  assert.doesNotMatch(t.displayUrl, /secret/);
  assert.equal(redact('token secret-token-123456 leaked'), 'token ••••••••3456 leaked');
  assert.equal(parseDatabaseUrl('http://127.0.0.1:8080', 'env-token').authToken, 'env-token');
  assert.equal(parseDatabaseUrl('http://127.0.0.1:8080').baseUrl, 'http://127.0.0.1:8080/');
  assert.equal(parseDatabaseUrl('https://h.example/db/x').baseUrl, 'https://h.example/db/x/', 'a path is a folder');
  assert.equal(parseDatabaseUrl('libsql://localhost:8080?tls=0').baseUrl, 'http://localhost:8080/');
  assert.equal(parseDatabaseUrl('wss://h.example/').baseUrl, 'https://h.example/');
  for (const bad of ['ftp://h/', 'not a url', 'https://h/?foo=1', 'https://user:pw@h/', 'libsql://h/?tls=2']) {
    assert.throws(
      () => parseDatabaseUrl(bad),
      (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input',
      bad,
    );
  }
});

test('token access is read from the JWT claims (libSQL p.ro / p.rw, or a)', () => {
  const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
  assert.equal(tokenAccess(jwt({ p: { ro: { ns: ['db'] }, rw: null } })), 'read-only');
  assert.equal(tokenAccess(jwt({ p: { ro: null, rw: { ns: ['db'] } } })), 'full-access');
  assert.equal(tokenAccess(jwt({ a: 'ro' })), 'read-only');
  assert.equal(tokenAccess(jwt({ iat: 1 })), 'full-access');
  assert.equal(tokenAccess('garbage'), null);
  assert.equal(tokenAccess(null), null);
});

test('value codec: integers always bigint, floats numbers, blobs with or without padding', () => {
  assert.equal(decodeValue({ type: 'integer', value: '9223372036854775807' }), 9223372036854775807n);
  assert.equal(decodeValue({ type: 'integer', value: '1' }), 1n);
  assert.equal(decodeValue({ type: 'float', value: 1 }), 1);
  assert.deepEqual(decodeValue({ type: 'blob', base64: 'AAEC/w' }), new Uint8Array([0, 1, 2, 255]));
  assert.deepEqual(decodeValue({ type: 'blob', base64: 'AAEC/w==' }), new Uint8Array([0, 1, 2, 255]));
  assert.equal(decodeValue({ type: 'null' }), null);
  for (const bad of [{ type: 'integer', value: 1.5 }, { type: 'integer', value: 'x' }, { type: 'blob', base64: '@@' }, { type: 'what' }, null]) {
    assert.throws(() => decodeValue(bad), JSON.stringify(bad));
  }
  assert.deepEqual(encodeArg(1), { type: 'float', value: 1 });
  assert.deepEqual(encodeArg(1n), { type: 'integer', value: '1' });
  assert.deepEqual(encodeArg(true), { type: 'integer', value: '1' });
  assert.deepEqual(encodeArg(new Uint8Array([0, 1, 2, 255])), { type: 'blob', base64: 'AAEC/w' });
  assert.throws(() => encodeArg(2n ** 63n));
  assert.throws(() => encodeArg(Number.NaN));
});

test('property: every encodable value decodes back to itself', () => {
  const value = fc.oneof(
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string(),
    fc.uint8Array({ maxLength: 64 }),
    fc.constant(null),
  );
  fc.assert(
    fc.property(value, (v) => {
      const back = decodeValue(JSON.parse(JSON.stringify(encodeArg(v))));
      if (typeof v === 'number' && Object.is(v, -0)) assert.equal(back, 0);
      else assert.deepEqual(back, v);
    }),
    { numRuns: 2000, seed: 3 },
  );
});

test('values as text and JSON: NULL, 1.0 for reals, exact big integers, tagged blobs', () => {
  assert.equal(valueText(null), 'NULL');
  assert.equal(valueText(1), '1.0');
  assert.equal(valueText(1n), '1');
  assert.equal(valueText(new Uint8Array([10, 255])), "x'0aff'");
  assert.equal(valueJson(9223372036854775807n), '9223372036854775807');
  assert.equal(valueJson(2.5), '2.5');
  assert.equal(valueJson(2), '2.0');
  assert.equal(valueJson('a"b'), '"a\\"b"');
  assert.equal(valueJson(new Uint8Array([0, 1])), '{"base64":"AAE="}');
  assert.deepEqual(JSON.parse(`[${valueJson(1e21)}, ${valueJson(-0.5)}]`), [1e21, -0.5]);
});

test('URLs from the management API match whatever their spelling', () => {
  assert.ok(sameDatabaseUrl('libsql://a.lite.bunnydb.net/', 'https://a.lite.bunnydb.net'));
  assert.ok(sameDatabaseUrl('http://127.0.0.1:9/db/x/', 'http://127.0.0.1:9/db/x'));
  assert.ok(!sameDatabaseUrl('http://127.0.0.1:9/db/x/', 'http://127.0.0.1:9/db/y/'));
});

test('token expiry: durations, RFC 3339, never; anything else is refused with what is allowed', () => {
  const now = Date.UTC(2026, 0, 1);
  assert.equal(parseExpiry('30d', now)!.toISOString(), '2026-01-31T00:00:00.000Z');
  assert.equal(parseExpiry('12h', now)!.getTime(), now + 12 * 3_600_000);
  assert.equal(parseExpiry('1w', now)!.getTime(), now + 7 * 86_400_000);
  assert.equal(parseExpiry('1m', now)!.getTime(), now + 30 * 86_400_000);
  assert.equal(parseExpiry('1y', now)!.getTime(), now + 365 * 86_400_000);
  assert.equal(parseExpiry('2027-03-01T10:00:00Z', now)!.toISOString(), '2027-03-01T10:00:00.000Z');
  assert.equal(parseExpiry('never', now), null);
  assert.throws(() => parseExpiry('2020-01-01T00:00:00Z', now), /in the past/);
  assert.throws(
    () => parseExpiry('soon', now),
    (e: unknown) => e instanceof UsageError && /12h, 30d/.test(e.message),
  );
  assert.throws(() => parseExpiry('0d', now), UsageError);
});
