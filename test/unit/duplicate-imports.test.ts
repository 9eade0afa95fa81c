import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duplicateImports, tsFiles } from '../helpers/duplicate-imports';

/**
 * Files that imported a module twice before this check existed. Merge them with
 * `node scripts/merge-duplicate-imports.mjs` (then empty this list); nothing may join it.
 */
const KNOWN: ReadonlySet<string> = new Set([
  'src/app/App.tsx: ../screens/screen-def',
  'src/cli.ts: ./commands/types',
  'src/commands/completion.ts: ./types',
  'src/commands/containers.ts: ./types',
  'src/commands/db.ts: ./types',
  'src/commands/emulator.ts: ./types',
  'src/commands/get.ts: ./types',
  'src/commands/logs-alerts.ts: ./types',
  'src/commands/logs-histogram.ts: ./types',
  'src/commands/logs-plan.ts: ./types',
  'src/commands/logs-sql.ts: ./types',
  'src/commands/logs-zones.ts: ./types',
  'src/commands/logs.ts: ./types',
  'src/commands/mutation.ts: ./types',
  'src/commands/shield-guardian.ts: ./types',
  'src/commands/shield-spec-upload.ts: ./types',
  'src/commands/shield.ts: ./types',
  'src/commands/sql.ts: ./types',
  'src/emulator/database/engine-cursor.ts: ./engine-protocol',
  'src/emulator/database/engine.ts: ./engine-protocol',
  'src/emulator/database/management.ts: ../http-kit',
  'src/emulator/logging/v2-query.ts: ./traffic',
  'src/logs-sql/engine.ts: ../api/logs/entry',
  'src/renderers/shield-zones.ts: ../api/shield',
  'src/screens/logs/LogsScreen.tsx: ../../keys/keymap',
  'src/screens/logs/LogsScreen.tsx: ../../keys/input-hooks',
  'src/screens/logs/LogsScreen.tsx: ../screen-def',
  'src/screens/logs/stats-view.ts: ./status-view',
  'src/screens/shield/GuardianPanel.tsx: ../../state/shield-store',
  'src/screens/shield/guardian-view.ts: ../../api/shield',
  'src/screens/shield/guardian-view.ts: ../../shield-spec/limits',
  'src/screens/sql/SqlScreen.tsx: ../screen-def',
  'src/screens/videos/VideosScreen.tsx: ../screen-def',
  'src/state/logs/filter-form.ts: ../../api/logs/query',
  'src/state/shield-draft.ts: ../api/shield',
  'src/state/sql/leave.ts: ../../api/database/index',
  'test/e2e/logs-alerts-cli.test.ts: node:test',
  'test/e2e/shell-errors.test.ts: node:test',
  'test/integration/api-core-resources.test.ts: node:test',
  'test/unit/containers-region-settings.test.ts: ../../src/text/table-model',
]);

test('a module is imported once per file (type and value imports in one declaration)', () => {
  const found = tsFiles(['src', 'test', 'bench']).flatMap((f) => duplicateImports(f));
  const fresh = found.filter((d) => !KNOWN.has(d));
  assert.deepEqual(fresh, [], 'merge them: node scripts/merge-duplicate-imports.mjs FILE');
});

test('the check sees a type import and a value import of one module as two', () => {
  const text = "import type { A } from './m';\nimport { b } from './m';\nimport * as ns from './m';\nimport { c } from './n';\n";
  assert.deepEqual(duplicateImports('x.ts', text), ['x.ts: ./m']);
});
