import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayCrossFields } from '../../src/log-records/record-line';

test('an escaped literal cannot match the space between fields; wildcards, classes and spaces can', () => {
  // escaped literals: field by field is enough (the fast path of the scan)
  for (const source of ['wp-login|\\.php', 'api\\/cart', '\\(x\\)', 'abc', '\\bword']) assert.equal(mayCrossFields(source), false, source);
  // may match a space, or looks around
  for (const source of ['a.b', 'api/cart.*(DE|FR)', '\\s', 'x y', '[a ]', '\\\\.', '\\W', '(?=x)', '(?<!x)'])
    assert.equal(mayCrossFields(source), true, source);
});
