import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { keepRawJson, rawJsonOf } from '../../src/api/raw-json';
import { isSecretField, maskSecret, registerSecret } from '../../src/config/redact';
import { recordJson, recordLines } from '../../src/text/raw-record';
import { hasTerminalControls } from '../../src/text/terminal-safe';

const Origin = z.looseObject({
  Id: z.number(),
  Weight: z
    .number()
    .nullish()
    .transform((v) => v ?? 100),
});
const Group = z.looseObject({
  Id: z.number(),
  Origins: z
    .array(Origin)
    .nullish()
    .transform((v) => v ?? []),
});
const Page = z.object({ Items: z.array(Group), HasMore: z.boolean() });

test('the raw JSON is kept beside each parsed record, at every level a table draws', () => {
  const raw = JSON.parse('{"Items":[{"Id":1,"Origins":null,"Extra":"x"},{"Id":2,"Origins":[{"Id":7,"Weight":null}]}],"HasMore":false}');
  const parsed = Page.parse(raw);
  keepRawJson(parsed, raw);
  assert.deepEqual(parsed.Items[0]!.Origins, [], 'the schema normalised null to []');
  assert.deepEqual(rawJsonOf(parsed.Items[0]), { Id: 1, Origins: null, Extra: 'x' }, 'the raw record keeps the null');
  assert.equal(parsed.Items[1]!.Origins[0]!.Weight, 100);
  assert.deepEqual(rawJsonOf(parsed.Items[1]!.Origins[0]), { Id: 7, Weight: null });
  assert.equal(rawJsonOf(parsed), raw);
  assert.equal(rawJsonOf({ Id: 1 }), undefined, 'an object that was never paired has none');
  assert.equal(rawJsonOf(null), undefined);
});

test('secret-named fields: the usual names and names that end like one', () => {
  for (const name of [
    'ApiKey',
    'ReadOnlyApiKey',
    'ApiAccessKey',
    'password',
    'StoragePassword',
    'ZoneSecurityKey',
    'AWSSigningSecret',
    'authorizationHeader',
    'readOnlyDatabaseToken',
    'api_key',
    'refresh_token',
  ]) {
    assert.ok(isSecretField(name), name);
  }
  for (const name of ['Name', 'PlayerKeyColor', 'errorKey', 'publicKey', 'PlayerTokenAuthenticationEnabled', 'tokens', 'Id'])
    assert.ok(!isSecretField(name), name);
});

test('the raw view JSON: pretty, secret fields masked at any depth, known secrets masked anywhere, exact integers and blobs', () => {
  const key = 'f3a9c1d2-77aa-4b1e-9c2d-0123456789ab-KEY';
  registerSecret(key);
  const value = {
    Id: 5,
    ApiKey: 'abcd1234efgh5678',
    Nested: { password: 'hunter2hunter2', list: [{ token: 'tok-0123456789' }] },
    WebhookUrl: `https://hooks.example.com/x?sig=${key}`,
    big: 9007199254740993n,
    blob: new Uint8Array([0, 255, 16]),
    empty: {},
    none: [],
    hostile: 'a\u0085b\u202ec',
  };
  const json = recordJson(value);
  assert.ok(json.includes(`"ApiKey": "${maskSecret('abcd1234efgh5678')}"`));
  assert.ok(json.includes(`"password": "${maskSecret('hunter2hunter2')}"`));
  assert.ok(json.includes(`"token": "${maskSecret('tok-0123456789')}"`));
  assert.ok(!json.includes(key), 'a registered secret inside another field is masked too');
  assert.ok(json.includes('"big": 9007199254740993'), 'a bigint as its digits');
  assert.ok(json.includes('"blob": { "base64": "AP8Q" }'));
  assert.ok(!hasTerminalControls(json.replace(/\n/g, '')), 'no raw control or bidi character');
  assert.match(json, /^\{\n {2}"Id": 5,\n {2}"ApiKey"/, 'two-space indent, the order the server sent');
  assert.ok(json.includes('"empty": {}') && json.includes('"none": []'));
  const parsed = JSON.parse(json.replace(/"big": (\d+)/, '"big": "$1"')) as { hostile: string };
  assert.equal(parsed.hostile, 'a\u0085b\u202ec', 'escaped, still the same JSON value');

  const shown = recordJson(value, { showSecrets: true });
  assert.ok(shown.includes('"ApiKey": "abcd1234efgh5678"') && shown.includes(key), 'shown when the console was started to show secrets');
});

test('raw view lines: long lines continue indented, each fits the width', () => {
  const json = recordJson({ userAgent: 'x'.repeat(70), short: 1 });
  const lines = recordLines(json, 40);
  assert.ok(
    lines.every((l) => l.length <= 40),
    lines.join('\n'),
  );
  assert.equal(lines[0], '{');
  assert.ok(lines[1]!.startsWith('  "userAgent": "xxx'));
  assert.ok(lines[2]!.startsWith('    x'), 'continued two cells deeper');
  assert.equal(lines.join('').replace(/\s/g, ''), json.replace(/\s/g, ''), 'nothing lost');
});
