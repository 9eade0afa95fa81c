import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayReal, formatReal, valueJson, valueText } from '../../src/api/database/values';

test('reals print as sqlite3 prints them (%!.15g): 15 significant digits, always a point, two-digit exponents', () => {
  const cases: [number, string][] = [
    [213.78500000000003, '213.785'],
    [0.1 + 0.2, '0.3'],
    [1, '1.0'],
    [-2.5, '-2.5'],
    [100, '100.0'],
    [1 / 3, '0.333333333333333'],
    [1e20, '1.0e+20'],
    [1e-5, '1.0e-05'],
    [0.0001, '0.0001'],
    [123456789012345.6, '123456789012346.0'],
    [1234567890123456, '1.23456789012346e+15'],
    [0, '0.0'],
    [Number.POSITIVE_INFINITY, 'Inf'],
    [Number.NaN, 'NaN'],
  ];
  for (const [n, want] of cases) assert.equal(displayReal(n), want, String(n));
  assert.equal(valueText(0.1 + 0.2), '0.3', 'tables and csv');
  assert.equal(valueJson(0.1 + 0.2), '0.30000000000000004', 'json keeps the exact value');
  assert.equal(formatReal(213.78500000000003), '213.78500000000003', '.dump keeps the exact value');
});
