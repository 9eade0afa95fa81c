import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, type Metafile } from 'esbuild';
// @ts-expect-error a plain .mjs build script without types
import { inkPatchesPlugin } from '../../scripts/ink-patches.mjs';
import { commands } from '../../src/commands/registry';

// What each way of starting burrow evaluates: the modules a file imports statically (an
// import() is evaluated only when it runs). `burrow --version` and `--help` must not pay for
// the API clients, and no non-interactive command may load React or Ink.

async function metafile(): Promise<Metafile> {
  const result = await build({
    entryPoints: ['src/cli.ts'],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    metafile: true,
    jsx: 'automatic',
    logLevel: 'silent',
    define: { 'import.meta.url': '__burrowMetaUrl' },
    external: ['libsql', '@libsql/*', '@duckdb/*', '@lydell/node-pty', '@xterm/*', 'esbuild', 'fast-check', 'ajv', 'ajv-formats', 'react-devtools-core'],
    plugins: [inkPatchesPlugin],
  });
  return result.metafile;
}

function staticClosure(meta: Metafile, start: string): Set<string> {
  const seen = new Set([start]);
  const stack = [start];
  while (stack.length > 0) {
    for (const i of meta.inputs[stack.pop()!]?.imports ?? []) {
      if (i.kind === 'dynamic-import' || i.external || seen.has(i.path)) continue;
      seen.add(i.path);
      stack.push(i.path);
    }
  }
  return seen;
}

const packagesIn = (files: Set<string>, pattern: RegExp) => [...new Set([...files].filter((f) => pattern.test(f)).map((f) => f.split('/')[1]))];

test('the entry point loads no dependency that --version and --help do not need', async () => {
  const meta = await metafile();
  const entry = staticClosure(meta, 'src/cli.ts');
  assert.ok(entry.size < 20, `src/cli.ts loads ${entry.size} modules: ${[...entry].join(', ')}`);
  assert.deepEqual(packagesIn(entry, /^node_modules\//), []);
});

test('no non-interactive command loads React, Ink or yoga', async () => {
  const meta = await metafile();
  const files = Object.keys(meta.inputs);
  for (const entry of commands.filter((c) => c.name !== 'tui')) {
    const file = files.find((f) => f === `src/commands/${entry.name}.ts`);
    assert.ok(file, `src/commands/${entry.name}.ts is in the bundle`);
    assert.deepEqual(packagesIn(staticClosure(meta, file), /^node_modules\/(react|react-reconciler|ink|yoga-layout)\//), [], `burrow ${entry.name}`);
  }
});

test('the console and the API clients load neither zod nor undici before a request', async () => {
  const meta = await metafile();
  for (const start of ['src/app/run-console.tsx', 'src/api/index.ts', 'src/api/http.ts']) {
    assert.deepEqual(packagesIn(staticClosure(meta, start), /^node_modules\/(zod|undici)\//), [], start);
  }
});

test('undici is bundled narrowly: its index, fetch, WebSocket, cookies, caches and mocks are left out', async () => {
  const meta = await metafile();
  const undici = Object.keys(meta.inputs).filter((f) => f.startsWith('node_modules/undici/'));
  assert.ok(
    undici.some((f) => f.endsWith('lib/dispatcher/agent.js')) && undici.some((f) => f.endsWith('lib/api/api-request.js')),
    'the agent and request are in',
  );
  const unwanted = undici.filter(
    (f) => f === 'node_modules/undici/index.js' || /lib\/(web\/(websocket|cookies|eventsource|cache)|mock|cache|interceptor)\//.test(f),
  );
  assert.deepEqual(unwanted, []);
});

test('each command in the help list loads, with the name and summary the list gives', async () => {
  for (const entry of commands) {
    const command = await entry.load();
    assert.equal(command.name, entry.name);
    assert.equal(command.summary, entry.summary);
  }
});
