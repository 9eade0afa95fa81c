import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError, apiErrorFromResponse, parseErrorBody } from '../../src/api/errors';
import { decodeValue, ValueError } from '../../src/api/database/values';

// Whatever a server (or a proxy in front of it) sends, reading the error never throws and always
// gives the status bar something to say.

const ctx = { method: 'PATCH', path: '/shield/shield-zone/1/api-guardian' };
const contentTypes = fc.constantFrom(
  null,
  '',
  'application/json',
  'application/json; charset=utf-8',
  'application/problem+json',
  'text/html',
  'text/plain',
  'application/octet-stream',
  'text/html; charset=x',
);

/** Bodies shaped like the platform's, with every field replaced by anything at all. */
const shaped = fc.oneof(
  fc.record(
    {
      error: fc.record(
        { statusCode: fc.anything(), success: fc.anything(), message: fc.anything(), errorKey: fc.anything(), code: fc.anything(), details: fc.anything() },
        { requiredKeys: [] },
      ),
      data: fc.anything(),
    },
    { requiredKeys: [] },
  ),
  fc.record({ error: fc.anything(), details: fc.anything() }, { requiredKeys: [] }),
  fc.record({ ErrorKey: fc.anything(), Field: fc.anything(), Message: fc.anything() }, { requiredKeys: [] }),
  fc.record(
    {
      title: fc.anything(),
      status: fc.anything(),
      detail: fc.anything(),
      type: fc.anything(),
      errors: fc.oneof(
        fc.anything(),
        fc.array(fc.record({ field: fc.anything(), message: fc.anything() }, { requiredKeys: [] })),
        fc.dictionary(fc.string(), fc.anything()),
      ),
      id: fc.anything(),
    },
    { requiredKeys: [] },
  ),
  fc.record({ message: fc.anything(), code: fc.anything(), success: fc.anything(), statusCode: fc.anything() }, { requiredKeys: [] }),
);
const bodyText = fc.oneof(
  shaped.map((b) => JSON.stringify(b) ?? ''),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string(),
  fc.string({ unit: 'binary' }),
  shaped.map((b) => (JSON.stringify(b) ?? '').slice(0, 7)),
  fc.string().map((t) => `<!DOCTYPE html><html><head><title>${t}</title></head><body>${t}</body></html>`),
  fc.string().map((t) => JSON.stringify({ message: `first line\n${t}\r\n\tthird` })),
  fc.constantFrom(
    '',
    '   ',
    '\n',
    'null',
    '""',
    '[]',
    '{}',
    '<html>',
    '{"error":null}',
    '{"error":{}}',
    '{"errors":{}}',
    '{"Message":""}',
    JSON.stringify({ detail: 'x'.repeat(100_000) }),
  ),
);

test('property: parseErrorBody never throws, whatever JSON value it gets', () => {
  fc.assert(
    fc.property(fc.oneof(shaped, fc.anything()), (body) => {
      const parsed = parseErrorBody(body);
      assert.ok(parsed.message === null || (typeof parsed.message === 'string' && parsed.message.trim() !== ''));
      assert.ok(parsed.code === null || typeof parsed.code === 'string');
      assert.ok(Array.isArray(parsed.fieldErrors));
      for (const f of parsed.fieldErrors) assert.equal(typeof f.message, 'string');
    }),
    { numRuns: 2000 },
  );
});

test('property: apiErrorFromResponse never throws and always says the status and something readable', () => {
  fc.assert(
    fc.property(fc.integer({ min: 100, max: 599 }), contentTypes, bodyText, (status, type, text) => {
      const e = apiErrorFromResponse(status, type, text, ctx);
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'http');
      assert.equal(e.status, status);
      assert.ok(e.message.startsWith(`${status} `), e.message);
      assert.ok(e.message.trim().length > String(status).length, 'more than the number');
      assert.ok(!e.message.includes('\n'), 'one line');
      assert.ok(e.message.length < 2000, 'bounded');
    }),
    { numRuns: 3000 },
  );
});

test('property: the database value decoder refuses anything off-protocol with a ValueError, never another error', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.anything(),
        fc.record(
          { type: fc.constantFrom('null', 'integer', 'float', 'text', 'blob', 'x'), value: fc.anything(), base64: fc.anything() },
          { requiredKeys: ['type'] },
        ),
      ),
      (v) => {
        try {
          decodeValue(v);
        } catch (error) {
          assert.ok(error instanceof ValueError, String(error));
          assert.ok((error as Error).message.length > 0);
        }
      },
    ),
    { numRuns: 3000 },
  );
});
