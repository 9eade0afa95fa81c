import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
// @ts-expect-error a plain .mjs build script without types
import { inkPatchesPlugin } from '../../scripts/ink-patches.mjs';

// Work that every start paid for at load, now done on first use: string-width's RGI_Emoji
// pattern (20-25 ms to create) and the table sort's Intl.Collator (10-25 ms of ICU set-up).

/** Counts the regular expressions made with an RGI_Emoji property, from before any module loads. */
const COUNT_RGI = `globalThis.rgiMade = 0;
globalThis.RegExp = new Proxy(RegExp, { construct(target, args) { if (String(args[0]).includes('RGI_Emoji')) globalThis.rgiMade++; return Reflect.construct(target, args); } });`;

const WIDTHS = `
import stringWidth from 'string-width';
const atLoad = globalThis.rgiMade;
const narrow = ['plain ascii', 'café · … ─│ ▁▂▃', ''].map((s) => stringWidth(s));
const afterNarrow = globalThis.rgiMade;
const samples = ['🐇', '👍🏽', '👨‍👩‍👧', '1️⃣', '#⃣', '🏳️‍🌈', '漢字テスト', 'e\\u0301cole', 'a\\u200db', '\\u00ad', '\\u2764\\ufe0f', 'x🐇y'];
const widths = samples.map((s) => stringWidth(s));
process.stdout.write(JSON.stringify({ atLoad, afterNarrow, end: globalThis.rgiMade, narrow, widths }));
`;

test('string-width: the RGI_Emoji pattern is made at the first text that needs it, and widths do not change', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-lazy-regex-'));
  try {
    const entry = path.join(dir, 'entry.mjs');
    fs.writeFileSync(entry, WIDTHS);
    const results: { atLoad: number; afterNarrow: number; end: number; narrow: number[]; widths: number[] }[] = [];
    for (const [name, plugins] of [
      ['plain', []],
      ['patched', [inkPatchesPlugin]],
    ] as const) {
      const outfile = path.join(dir, `${name}.mjs`);
      await build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        nodePaths: [path.resolve('node_modules')],
        banner: { js: COUNT_RGI },
        plugins: [...plugins],
        logLevel: 'silent',
      });
      const r = spawnSync(process.execPath, [outfile], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      results.push(JSON.parse(r.stdout) as (typeof results)[number]);
    }
    const [plain, patched] = results;
    assert.equal(plain!.atLoad, 1, 'published: made when the module loads (if this fails, string-width changed and the patch may go)');
    assert.equal(patched!.atLoad, 0, 'patched: not made at load');
    assert.equal(patched!.afterNarrow, 0, 'patched: not made for ASCII and the narrow set');
    assert.equal(patched!.end, 1, 'patched: made once, for the first emoji');
    assert.deepEqual(patched!.narrow, plain!.narrow);
    assert.deepEqual(patched!.widths, plain!.widths);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the table model makes its Intl.Collator at the first sort of text, not when it loads', async () => {
  const Original = Intl.Collator;
  let made = 0;
  Intl.Collator = new Proxy(Original, {
    construct(target, args: ConstructorParameters<typeof Intl.Collator>) {
      made++;
      return Reflect.construct(target, args) as Intl.Collator;
    },
  });
  try {
    const { sortRows } = await import('../../src/text/table-model');
    assert.equal(made, 0, 'loading the module');
    const rows = ['b10', 'B2', 'a', 'b1'];
    const byNumber = sortRows([3, 1, 2], null, { id: 'n', header: 'N', cell: (n: number) => String(n), sortValue: (n: number) => n }, false);
    assert.deepEqual(byNumber, [1, 2, 0]);
    assert.equal(made, 0, 'numbers sort without it');
    const order = sortRows(rows, null, { id: 's', header: 'S', cell: (s: string) => s }, false).map((i) => rows[i]);
    assert.deepEqual(order, ['a', 'b1', 'B2', 'b10']);
    sortRows(rows, null, { id: 's', header: 'S', cell: (s: string) => s }, true);
    assert.equal(made, 1, 'one collator, made once');
  } finally {
    Intl.Collator = Original;
  }
});

test('an API schema is built at its first use, once, and composes with the schemas it uses', async () => {
  const { lazySchema } = await import('../../src/api/lazy-schema');
  let builds = 0;
  const item = lazySchema((z) => {
    builds++;
    return z.object({ id: z.number().int() });
  });
  const list = lazySchema((z) => z.array(item.of(z)));
  assert.equal(builds, 0, 'nothing built when declared');
  const parsed = (await list.load()).safeParse([{ id: 1 }, { id: 2.5 }]);
  assert.equal(parsed.success, false);
  assert.equal(builds, 1);
  assert.equal(await item.load(), await item.load());
  assert.equal(builds, 1, 'built once');
});
