import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importCycles, layerViolations, MAY_IMPORT, readImports } from '../helpers/import-rules';

/**
 * Imports against the map that other work in progress removes. Each entry must still occur
 * (the test fails on a stale one), so the list only shrinks.
 */
const KNOWN_VIOLATIONS: readonly string[] = [];

/** Import cycles that other work in progress removes; like KNOWN_VIOLATIONS, the list only shrinks. */
const KNOWN_CYCLES: readonly string[] = [];

test('every import in src/ follows the layer order of docs/ARCHITECTURE.md', () => {
  const { edges, unresolved } = readImports('src');
  assert.ok(edges.length > 300, `read the imports of src/ (found ${edges.length})`);
  assert.deepEqual(unresolved, [], 'every relative import resolves to a file');
  assert.ok(
    edges.some((e) => e.lazy && e.from === 'src/commands/tui.ts' && e.to === 'src/app/run-console.tsx'),
    'import() is read as a lazy edge',
  );
  assert.ok(
    edges.some((e) => e.from === 'src/commands/resource.ts' && e.to === 'src/runtime/connect.ts'),
    'import type is read',
  );
  const found = layerViolations(edges);
  assert.deepEqual(
    found.filter((v) => !KNOWN_VIOLATIONS.some((k) => v.startsWith(`${k} `))),
    [],
    'imports against the layer order',
  );
  for (const known of KNOWN_VIOLATIONS)
    assert.ok(
      found.some((v) => v.startsWith(`${known} `)),
      `stale entry in KNOWN_VIOLATIONS: ${known}`,
    );
});

test('src/ has no import cycles', () => {
  const cycles = importCycles(readImports('src').edges);
  assert.deepEqual(
    cycles.filter((c) => !KNOWN_CYCLES.includes(c)),
    [],
    'import cycles',
  );
  for (const known of KNOWN_CYCLES) assert.ok(cycles.includes(known), `stale entry in KNOWN_CYCLES: ${known}`);
});

test('a wrong import is reported: a component importing a store, state importing a screen, an unknown folder', () => {
  const found = layerViolations([
    { from: 'src/components/Table.tsx', to: 'src/state/ui-store.ts' },
    { from: 'src/state/ui-store.ts', to: 'src/screens/screen-def.ts' },
    { from: 'src/widgets/Thing.tsx', to: 'src/keys/keymap.ts' },
    { from: 'src/screens/home/HomeScreen.tsx', to: 'src/state/store-hooks.ts' },
    { from: 'src/api/logs/query.ts', to: 'src/api/errors.ts' },
  ]);
  assert.deepEqual(found, [
    'src/components/Table.tsx -> src/state/ui-store.ts (components may not import state)',
    'src/state/ui-store.ts -> src/screens/screen-def.ts (state may not import screens)',
    'src/widgets/Thing.tsx -> src/keys/keymap.ts (widgets is not on the map in ARCHITECTURE.md)',
  ]);
});

test('a cycle is reported with every file in it', () => {
  const cycles = importCycles([
    { from: 'src/a.ts', to: 'src/b.ts' },
    { from: 'src/b.ts', to: 'src/c.ts' },
    { from: 'src/c.ts', to: 'src/a.ts' },
    { from: 'src/c.ts', to: 'src/d.ts' },
    { from: 'src/d.ts', to: 'src/e.ts' },
    { from: 'src/e.ts', to: 'src/d.ts', lazy: true },
  ]);
  assert.deepEqual(cycles, ['src/a.ts <-> src/b.ts <-> src/c.ts', 'src/d.ts <-> src/e.ts'], 'a cycle closed by a lazy import() is a cycle too');
});

test('the layer table in docs/ARCHITECTURE.md says what MAY_IMPORT enforces', () => {
  const doc = readFileSync('docs/ARCHITECTURE.md', 'utf8');
  // the header row, however Prettier pads the table's cells
  const at = doc.search(/^\| Folder +\| May import +\|/m);
  assert.ok(at >= 0, 'the layer table (| Folder | May import |) is in docs/ARCHITECTURE.md');
  const table = doc.slice(at);
  const documented: Record<string, string[]> = {};
  for (const line of table.split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [parts, allowed] = line
      .split('|')
      .slice(1, 3)
      .map((c) => c.trim());
    const imports = allowed === 'nothing outside themselves' ? [] : allowed!.split(',').map((s) => s.trim());
    for (const part of parts!.split(',')) documented[part.trim().replace(/`/g, '').replace(/\/$/, '')] = imports;
  }
  assert.deepEqual(documented, Object.fromEntries(Object.entries(MAY_IMPORT).map(([k, v]) => [k, [...v]])));
});
