// Runs node's test runner over test/**/*.test.ts(x).
// Usage: node scripts/run-tests.mjs [--test-name-pattern=RE ...] [path-prefix ...]  (e.g. test/unit test/e2e/shell)
// Arguments starting with -- go to node's test runner (one test alone: --test-name-pattern="highlight mode").
//
// The test files are compiled first, all at once, by esbuild (the compiler tsx uses) into one
// ES module per test file plus shared chunks, and node runs those: each file is its own process,
// and under tsx every process spent a second or more loading its few hundred modules one by one
// through tsx's loader (a worker thread in Node 20), most of it before the first test ran. The
// code is the same: dependencies stay in node_modules, and each source file keeps its own
// import.meta.url, so paths computed from it do not change. BURROW_TEST_TSX=1 runs the sources
// through tsx as before (a stack trace then points at the .ts lines directly).
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full));
    else if (/\.test\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

const runnerFlags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const prefixes = process.argv.slice(2).filter((a) => !a.startsWith('--'));
// The soak (*.soak.test.ts, 45 s of faults) runs only when named: npm run test:soak (.ci/run runs it)
const files = walk('test')
  .filter((f) => (prefixes.length === 0 ? !f.endsWith('.soak.test.ts') : prefixes.some((p) => f.startsWith(path.normalize(p)))))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${prefixes.join(' ') || 'test/'}`);
  process.exit(1);
}

/**
 * Each source file keeps its own import.meta.url, dirname and filename (a bundle would give every
 * file the compiled file's): each file is compiled on its own with them defined, then bundled.
 */
function ownImportMeta(transform) {
  const tsconfigRaw = readFileSync(path.join(root, 'tsconfig.json'), 'utf8');
  return {
    name: 'own-import-meta',
    setup(build) {
      build.onLoad({ filter: /[\\/](src|test|scripts|bench)[\\/].*\.(tsx?|mjs)$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const { code } = await transform(source, {
          loader: args.path.endsWith('.mjs') ? 'js' : args.path.endsWith('.tsx') ? 'tsx' : 'ts',
          format: 'esm',
          target: 'node20',
          jsx: 'automatic',
          tsconfigRaw,
          sourcefile: args.path,
          sourcemap: 'inline',
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
            'import.meta.dirname': JSON.stringify(path.dirname(args.path)),
            'import.meta.filename': JSON.stringify(args.path),
          },
        });
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/** The directories of runs that were killed before they could remove their own. */
function removeLeftovers(runs) {
  let names = [];
  try {
    names = readdirSync(runs);
  } catch {
    return;
  }
  for (const name of names) {
    if (/^\d+$/.test(name) && alive(Number(name))) continue;
    rmSync(path.join(runs, name), { recursive: true, force: true });
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Compiles the test files; returns the compiled file of each. */
async function compile(testFiles) {
  const { build, transform } = await import('esbuild');
  // inside node_modules, so that the compiled files resolve packages as the sources do; one
  // directory per run (two runs at once must not replace each other's files), removed at the end
  const runs = path.join(root, 'node_modules', '.cache', 'burrow-tests');
  removeLeftovers(runs);
  const outdir = path.join(runs, String(process.pid));
  rmSync(outdir, { recursive: true, force: true });
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  await build({
    entryPoints: testFiles,
    outdir,
    outbase: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    sourcemap: true,
    outExtension: { '.js': '.mjs' },
    plugins: [ownImportMeta(transform)],
    logLevel: 'warning',
  });
  return testFiles.map((f) => path.join(outdir, f.replace(/\.tsx?$/, '.mjs')));
}

// The ClickHouse tests (test/helpers/clickhouse.ts) skip where the server is not installed: said once here
const clickhouseServer = process.env.BURROW_CLICKHOUSE_SERVER ?? '/usr/sbin/clickhouse-server';
if (files.some((f) => /(^|[\\/])(log-ship|ship-)[^\\/]*\.test\.ts$/.test(f)) && !existsSync(clickhouseServer)) {
  if (process.env.BURROW_REQUIRE_CLICKHOUSE === '1')
    console.error(`BURROW_REQUIRE_CLICKHOUSE=1 and ${clickhouseServer} is missing: the ClickHouse tests will fail`);
  else
    console.error(
      `note: the ClickHouse tests (burrow ship) are skipped: ${clickhouseServer} is not installed (apt-get install -y clickhouse-server clickhouse-client)`,
    );
}

const viaTsx = process.env.BURROW_TEST_TSX === '1';
const args = viaTsx ? ['--import', 'tsx', ...files] : ['--enable-source-maps', ...(await compile(files))];
// three files at a time on this 2-core machine: most files spend much of their time waiting (on an
// emulator's ingestion delay, a pty's frames), and on a quiet machine the suite took 3 min 48 s
// with 3 against 4 min 41 s with 2 (859 tests, all passing). BURROW_TEST_CONCURRENCY=N to measure another.
const concurrency = Number(process.env.BURROW_TEST_CONCURRENCY ?? 3);
// a test that hangs (a pty waiting for an exit that never comes) fails after this instead of holding CI
const testTimeout = runnerFlags.some((f) => f.startsWith('--test-timeout')) ? [] : ['--test-timeout=300000'];
const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...testTimeout, ...runnerFlags, ...args], {
  stdio: 'inherit',
  env: { ...process.env, BURROW_TEST: '1', FORCE_COLOR: '0' },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
