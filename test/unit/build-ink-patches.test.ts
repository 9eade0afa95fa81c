import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
// @ts-expect-error a plain .mjs build script without types
import { INK_PATCHES, inkPatchesPlugin, NARROW_CLASS } from '../../scripts/ink-patches.mjs';
import stringWidth from 'string-width';
import { tokenize } from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';

// The bundle patches Ink (scripts/ink-patches.mjs): render caches kept between frames, and the
// frame after a key drawn at once. The caches must not change a single character of output.

const patches = INK_PATCHES as Record<string, (source: string) => string>;

test('every Ink patch applies to the installed Ink, once', () => {
  for (const [file, patch] of Object.entries(patches)) {
    const source = fs.readFileSync(path.join('node_modules/ink/build', file), 'utf8');
    const patched = patch(source);
    assert.notEqual(patched, source, file);
    assert.throws(() => patch('export default 1;'), /not the version/, `${file}: a different file is refused`);
  }
});

test('the narrow set: each character is one column and its own grapheme, for string-width and ansi-tokenize as published', () => {
  const chars: string[] = [];
  for (const m of (NARROW_CLASS as string).matchAll(/\\u([0-9A-F]{4})(?:-\\u([0-9A-F]{4}))?/g)) {
    const from = parseInt(m[1]!, 16);
    const to = m[2] ? parseInt(m[2], 16) : from;
    for (let c = from; c <= to; c++) chars.push(String.fromCharCode(c));
  }
  assert.ok(chars.length > 100 && chars.includes('…') && chars.includes('·') && !chars.includes('\u00AD'));
  for (const c of chars) {
    assert.equal(stringWidth(c), 1, `width of U+${c.charCodeAt(0).toString(16)}`);
    assert.equal(stringWidth(`a${c}b`), 3, `a U+${c.charCodeAt(0).toString(16)} b`);
    const tokens = tokenize(`a${c}b`);
    assert.deepEqual(
      tokens.map((t) => (t.type === 'char' ? [t.value, t.fullWidth] : t.type)),
      [
        ['a', false],
        [c, false],
        ['b', false],
      ],
      `tokens of U+${c.charCodeAt(0).toString(16)}`,
    );
    assert.equal(sliceAnsi(`a\x1b[31m${c}\x1b[39mb`, 1, 2), `\x1b[31m${c}\x1b[39m`, `slice of U+${c.charCodeAt(0).toString(16)}`);
  }
});

// Renders random trees (clipping boxes, nested colours, wrap and truncate modes, wide and
// combining characters, emoji) at several widths, each tree several times in a row and in an
// order that revisits earlier ones, so cached lines, widths and slices are reused across frames.
const SCRIPT = `
import React from 'react';
import { renderToString, Box, Text } from 'ink';
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (a) => a[Math.floor(rnd() * a.length)];
const WORDS = ['· … ● ✖ ↑↓ ─│ ▁▂▃▄▅▆▇█ ░▒▓ ▸ ⚠ ✔ ❚ – — ‹› ±', 'café déjà vu', '\\u00AD soft', 'x\\u0301y', 'tab\\r\\nx', 'alpha', 'β-beta', '漢字テスト', 'e\\u0301cole', '🐇 burrow', 'x'.repeat(40), 'HIT', 'MISS', '404', '·', '…', 'tab\\tstop', 'a b c d e f g h'];
const COLORS = [undefined, 'red', 'green', 'yellow', 'cyan', 'gray'];
function text(depth) {
  const parts = [];
  const n = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) {
    if (depth < 2 && rnd() < 0.3) parts.push(text(depth + 1));
    else parts.push(React.createElement(Text, { key: i, color: pick(COLORS), bold: rnd() < 0.2, inverse: rnd() < 0.1 }, pick(WORDS) + ' '));
  }
  return React.createElement(Text, { key: 't' + depth + rnd(), wrap: pick(['wrap', 'truncate', 'truncate-middle', 'truncate-start']), color: pick(COLORS) }, ...parts);
}
function box(depth) {
  const kids = [];
  const n = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) kids.push(depth < 3 && rnd() < 0.4 ? box(depth + 1) : text(0));
  return React.createElement(Box, {
    key: 'b' + depth + rnd(),
    flexDirection: pick(['row', 'column']),
    width: rnd() < 0.5 ? 10 + Math.floor(rnd() * 50) : undefined,
    height: rnd() < 0.3 ? 1 + Math.floor(rnd() * 5) : undefined,
    overflow: rnd() < 0.5 ? 'hidden' : 'visible',
    paddingLeft: Math.floor(rnd() * 3),
    marginLeft: Math.floor(rnd() * 2),
  }, ...kids);
}
const trees = Array.from({ length: 60 }, () => box(0));
const out = [];
for (let round = 0; round < 3; round++) {
  for (let i = 0; i < trees.length; i++) {
    const t = trees[(i * 7 + round * 13) % trees.length];
    for (const columns of [20, 47, 80, 120]) out.push(renderToString(t, { columns }));
  }
}
// the same line at other columns, and next to other lines: a row is its writes and where they go
for (const pad of [0, 1, 2, 3, 0, 2, 1]) {
  out.push(renderToString(React.createElement(Box, { paddingLeft: pad }, React.createElement(Text, { color: 'red' }, 'same line · …')), { columns: 40 }));
  out.push(renderToString(React.createElement(Box, { flexDirection: 'row' }, React.createElement(Text, null, 'left'), React.createElement(Box, { marginLeft: pad }, React.createElement(Text, null, 'right'))), { columns: 40 }));
}
process.stdout.write(JSON.stringify(out));
`;

/** Ink imports the React devtools only in development; an empty module stands in. */
const noDevtools = {
  name: 'no-devtools',
  setup(b: {
    onResolve: (o: { filter: RegExp }, f: () => { path: string; namespace: string }) => void;
    onLoad: (o: { filter: RegExp; namespace: string }, f: () => { contents: string }) => void;
  }) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'stub', namespace: 'no-devtools' }));
    b.onLoad({ filter: /.*/, namespace: 'no-devtools' }, () => ({ contents: 'export default {};' }));
  },
};

test('patched Ink renders exactly what Ink renders', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-ink-patches-'));
  try {
    const entry = path.join(dir, 'entry.mjs');
    fs.writeFileSync(entry, SCRIPT);
    const outputs: string[] = [];
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
        banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
        define: { 'process.env.NODE_ENV': '"production"' },
        plugins: [...plugins, noDevtools],
        logLevel: 'silent',
      });
      const r = spawnSync(process.execPath, [outfile], { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '3' }, maxBuffer: 64 << 20 });
      assert.equal(r.status, 0, r.stderr);
      outputs.push(r.stdout);
    }
    const [plain, patched] = outputs.map((o) => JSON.parse(o!) as string[]);
    assert.ok(plain!.length === 734 && plain!.some((s) => s.includes('\x1b[')), 'the renders have colours');
    for (let i = 0; i < plain!.length; i++) assert.equal(patched![i], plain![i], `render ${i}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const STYLED_CHARS_SCRIPT = `
import { styledCharsFromTokens, tokenize } from '@alcalzone/ansi-tokenize';
const lines = [
  'plain ascii row 200 /fonts/inter-var.woff2',
  '\\x1b[31mred\\x1b[39m then \\x1b[1m\\x1b[32mbold green\\x1b[22m green\\x1b[0m plain',
  '\\x1b[7m selected \\x1b[27m·… 日本語 emoji 👍🏽 e\\u0301',
  '',
];
const chars = lines.map((l) => styledCharsFromTokens(tokenize(l)));
const all = chars.flat();
// run with --allow-natives-syntax; hidden from esbuild's parser
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)');
const sameMaps = all.every((c) => haveSameMap(c, all[0]));
const styleArrays = new Set(all.map((c) => c.styles)).size;
process.stdout.write(JSON.stringify({ chars, sameMaps, styleArrays, count: all.length }));
`;

test('styled characters: the same characters and styles as published, with one shape and shared style arrays', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-styled-chars-'));
  try {
    const entry = path.join(dir, 'entry.mjs');
    fs.writeFileSync(entry, STYLED_CHARS_SCRIPT);
    const results: { chars: unknown; sameMaps: boolean; styleArrays: number; count: number }[] = [];
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
        plugins: [...plugins],
        logLevel: 'silent',
      });
      const r = spawnSync(process.execPath, ['--allow-natives-syntax', outfile], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      results.push(JSON.parse(r.stdout) as (typeof results)[number]);
    }
    const [plain, patched] = results;
    assert.deepEqual(patched!.chars, plain!.chars);
    assert.equal(plain!.sameMaps, false, 'published: each character has its own shape (if this fails, V8 or the library changed and the patch may go)');
    assert.equal(patched!.sameMaps, true, 'patched: every character has the same shape');
    assert.ok(
      patched!.styleArrays < 12 && plain!.styleArrays === plain!.count,
      `style arrays: ${patched!.styleArrays} patched, ${plain!.styleArrays} published`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
