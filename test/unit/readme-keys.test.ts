import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { KEYS_END, KEYS_START, keysMarkdown } from '../../scripts/keys-doc';
import { allActions } from '../../src/app/app-keymap';
import { commands } from '../../src/commands/registry';

const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test('the README keys table is exactly what scripts/keys-doc.ts prints (regenerate with --write)', () => {
  const start = readme.indexOf(KEYS_START);
  const end = readme.indexOf(KEYS_END);
  assert.ok(start >= 0 && end > start, 'README.md has the keys markers');
  const table = readme.slice(start + KEYS_START.length, end).trim();
  assert.equal(table, keysMarkdown(), 'run: node --import tsx scripts/keys-doc.ts --write');
  for (const a of allActions()) assert.ok(table.includes(`\`${a.id}\``), `${a.id} is documented`);
});

test('the README opens with what burrow is, then exactly the two set-up lines', () => {
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(firstBlock);
  const lines = firstBlock[1]!
    .trim()
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, ''));
  assert.deepEqual(lines, ['npm install && npm start', 'npm test']);
  assert.ok(readme.indexOf('```sh') < readme.indexOf('## '), 'before any section');
});

test('the README lists every command of burrow --help', () => {
  const help = /## Commands and flags[\s\S]*?```text\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  for (const c of commands) assert.match(help, new RegExp(`^  ${c.name}\\s+\\S`, 'm'), `burrow ${c.name} is in the README`);
});
