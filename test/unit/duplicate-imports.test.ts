import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duplicateImports, tsFiles } from '../helpers/duplicate-imports';

test('a module is imported once per file (type and value imports in one declaration)', () => {
  const found = tsFiles(['src', 'test', 'bench']).flatMap((f) => duplicateImports(f));
  assert.deepEqual(found, [], 'merge them: node scripts/merge-duplicate-imports.mjs FILE');
});

test('the check sees a type import and a value import of one module as two', () => {
  const text = "import type { A } from './m';\nimport { b } from './m';\nimport * as ns from './m';\nimport { c } from './n';\n";
  assert.deepEqual(duplicateImports('x.ts', text), ['x.ts: ./m']);
});
