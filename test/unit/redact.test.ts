import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redact, registerSecret } from '../../src/config/redact';

// Secrets never reach the terminal or a log: whole, in part, or in a URL.

const key = 'b7e4c1d9-58a2-4f3e-9c61-0d2a7f8e3b45-11aa-4c2f';
const jwt = 'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJhIjoicnciLCJpZCI6ImRiXzEifQ.Qk9HVVNzaWduYXR1cmVfcmFuZG9tX2J5dGVzX2hlcmVfMTIzNDU2Nzg5MA';
registerSecret(key);
registerSecret(jwt);

test('a whole secret keeps only its last four characters', () => {
  assert.equal(redact(`key ${key} refused`), 'key ••••••••4c2f refused');
});

test('a server echoing part of a key or token: the part is masked too', () => {
  const echoed = `401: invalid AccessKey "${key.slice(0, 13)}…"`;
  assert.equal(redact(echoed), '401: invalid AccessKey "••••••••…"');
  const middle = redact(`token ends ${jwt.slice(-20)}, key part ${key.slice(10, 30)} here`);
  assert.ok(!middle.includes(jwt.slice(-12)), middle);
  assert.ok(!middle.includes(key.slice(14, 26)), middle);
  assert.match(middle, /^token ends ••••••••, key part •••••••• here$/);
});

test('short fragments and the shared JWT header are left alone (they identify nothing)', () => {
  assert.equal(redact(`ids ${key.slice(0, 7)} and 4c2f`), `ids ${key.slice(0, 7)} and 4c2f`);
  const other = 'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJhIjoicm8ifQ.Xq3vP9sLm2Tz8KwR5yNbH7cJd4FgA1eU6oIiYtWr0Zs';
  assert.equal(redact(`new token ${other}`), `new token ${other}`);
});

test('passwords in URLs and secret query parameters are masked', () => {
  assert.equal(redact('GET https://alice:s3cr3t-pw@api.example.net/v1 failed'), 'GET https://alice:••••••••@api.example.net/v1 failed');
  assert.equal(redact('libsql://db.example.net/?authToken=abc.def.ghi&tls=1'), 'libsql://db.example.net/?authToken=••••••••&tls=1');
  assert.equal(redact('see https://docs.example.net/a:b and mail@example.net'), 'see https://docs.example.net/a:b and mail@example.net');
});

test('--debug SQL: string and blob literals hidden; identifiers, comments, numbers and arguments shapes kept', async () => {
  const { redactSqlLiterals, redactPipelineBody } = await import('../../src/api/database/debug-sql');
  assert.equal(
    redactSqlLiterals(`INSERT INTO "it's" (a, [b'c], \`d\`) VALUES ('O''Brien', X'00ff', 3.5) -- don't\n;`),
    `INSERT INTO "it's" (a, [b'c], \`d\`) VALUES ('…', X'…', 3.5) -- don't\n;`,
  );
  assert.equal(redactSqlLiterals("SELECT max(x) FROM t WHERE tax'"), "SELECT max(x) FROM t WHERE tax'…'");
  const body = {
    baton: null,
    requests: [
      {
        type: 'execute',
        stmt: {
          sql: "SELECT ?, :n, 'a'",
          args: [
            { type: 'text', value: 'secret' },
            { type: 'integer', value: '7' },
          ],
          named_args: [{ name: ':n', value: { type: 'blob', base64: 'AAE=' } }],
        },
      },
      { type: 'batch', batch: { steps: [{ stmt: { sql: "UPDATE t SET pw = 'x'" } }] } },
    ],
  };
  assert.deepEqual(redactPipelineBody(body), {
    baton: null,
    requests: [
      {
        type: 'execute',
        stmt: {
          sql: "SELECT ?, :n, '…'",
          args: [
            { type: 'text', value: '…' },
            { type: 'integer', value: '7' },
          ],
          named_args: [{ name: ':n', value: { type: 'blob', base64: '…' } }],
        },
      },
      { type: 'batch', batch: { steps: [{ stmt: { sql: "UPDATE t SET pw = '…'" } }] } },
    ],
  });
});
