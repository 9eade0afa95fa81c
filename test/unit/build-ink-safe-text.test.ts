import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
// @ts-expect-error a plain .mjs build script without types
import { inkSafeTextPlugin, patchDomText, patchUseInput } from '../../scripts/ink-safe-text.mjs';
// @ts-expect-error a plain .mjs build script without types
import { inkPatchesPlugin } from '../../scripts/ink-patches.mjs';

// The bundle routes every text node Ink draws through the sanitiser (scripts/ink-safe-text.mjs):
// a screen that forgot to escape outside text still sends no control sequence to the terminal.

const SCRIPT = `
import React from 'react';
import { renderToString, Box, Text } from 'ink';
const h = React.createElement;
const hostile = 'zone \\x1b]52;c;aGFja2Vk\\x07 \\x1b]0;pwned\\x07 \\x1b[2J \\u202eevil \\x9b2J end';
const out = [
  renderToString(h(Text, null, hostile), { columns: 200 }),
  renderToString(h(Box, null, h(Text, { color: 'red', bold: true }, 'title '), h(Text, null, 'row\\nnext')), { columns: 80 }),
  renderToString(h(Text, null, '\\x1b[7mselected\\x1b[27m plain'), { columns: 80 }),
];
process.stdout.write(JSON.stringify(out));
`;

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

test('the patches apply to the installed Ink and refuse another version', () => {
  const dom = fs.readFileSync('node_modules/ink/build/dom.js', 'utf8');
  assert.match(patchDomText(dom) as string, /node\.nodeValue = burrowTerminalSafe\(text\)/);
  assert.throws(() => patchDomText('export default 1;'), /not the version/);
  const useInput = fs.readFileSync('node_modules/ink/build/hooks/use-input.js', 'utf8');
  assert.match(patchUseInput(useInput) as string, /input = keypress\.name \?\? '';/);
  assert.throws(() => patchUseInput('export default 1;'), /not the version/);
});

test('Ink as bundled draws control characters in text as visible escapes and keeps colours and line breaks', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-ink-safe-'));
  try {
    const entry = path.join(dir, 'entry.mjs');
    fs.writeFileSync(entry, SCRIPT);
    const outfile = path.join(dir, 'out.mjs');
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
      plugins: [inkPatchesPlugin, inkSafeTextPlugin, noDevtools],
      logLevel: 'silent',
    });
    const r = spawnSync(process.execPath, [outfile], { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '3' } });
    assert.equal(r.status, 0, r.stderr);
    const [hostile, styled, inline] = JSON.parse(r.stdout) as string[];
    assert.equal(hostile, 'zone \\x1b]52;c;aGFja2Vk\\x07 \\x1b]0;pwned\\x07 \\x1b[2J \\u202eevil \\x9b2J end');
    assert.ok(styled!.includes('\x1b[31m') && styled!.includes('\n'), JSON.stringify(styled));
    assert.ok(styled!.includes('row') && styled!.includes('next'));
    assert.equal(inline, '\x1b[7mselected\x1b[27m plain');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
