// Runs node's test runner over test/**/*.test.ts(x) through tsx.
// Usage: node scripts/run-tests.mjs [path-prefix ...]  (e.g. test/unit test/e2e/shell)
import { readdirSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full));
    else if (/\.test\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

const prefixes = process.argv.slice(2);
// The soak (*.soak.test.ts, 45 s of faults) runs only when named: npm run test:soak (.ci/run runs it)
const files = walk('test')
  .filter((f) => (prefixes.length === 0 ? !f.endsWith('.soak.test.ts') : prefixes.some((p) => f.startsWith(path.normalize(p)))))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${prefixes.join(' ') || 'test/'}`);
  process.exit(1);
}
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, BURROW_TEST: '1', FORCE_COLOR: '0' } },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
