// Bundles src/cli.ts into dist/cli.cjs; the console (Ink, React), the emulator and each command
// are evaluated only when used, so `burrow get ...` does not pay for them.
// Pure-JS dependencies are bundled too (one file to read and compile instead of ~100, and React's
// production build); native packages stay external in node_modules.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { inkPatchesPlugin } from './ink-patches.mjs';
import { inkSafeTextPlugin } from './ink-safe-text.mjs';
import { undiciPatchesPlugin } from './undici-patches.mjs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { LEAN_COMMANDS, leanBundleName } = require('../bin/run-bundle.cjs');

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const quiet = process.argv.includes('--quiet');
const outArg = process.argv.find((a) => a.startsWith('--outdir='));
const outdir = outArg ? path.resolve(outArg.slice('--outdir='.length)) : path.join(root, 'dist');
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const started = Date.now();
// --if-stale (npm start, npm test): nothing to do when the build is newer than every input. A
// rebuild rewrites dist/ under running programs and makes every code cache stale (a test that runs
// `npm start` rebuilt it in the middle of the test suite).
if (process.argv.includes('--if-stale') && !outArg && upToDate()) process.exit(0);
// Old chunks are removed only when asked: a binary that a test already started may still load them.
if (process.argv.includes('--clean')) rmSync(outdir, { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Native addons and tools that must be resolved from node_modules at run time.
  external: ['libsql', '@libsql/*', '@duckdb/*', '@lydell/node-pty', '@xterm/*', 'esbuild', 'fast-check', 'ajv', 'ajv-formats', 'react-devtools-core'],
  sourcemap: 'linked',
  jsx: 'automatic',
  legalComments: 'none',
  // Ink keeps its render caches between frames and draws the frame after a key at once (ink-patches.mjs)
  // and every text node it draws passes the terminal sanitiser (ink-safe-text.mjs); undici's
  // client leaves Node's http2 and http modules unloaded (undici-patches.mjs)
  plugins: [inkPatchesPlugin, inkSafeTextPlugin, undiciPatchesPlugin],
  logLevel: quiet ? 'warning' : 'info',
  define: {
    'process.env.BURROW_BUILD_VERSION': JSON.stringify(version),
    'process.env.NODE_ENV': '"production"',
  },
};
// The program: one CommonJS file, so that bin/run-bundle.cjs can compile it with a V8 code cache
// (Node 20 has no compile cache for ES modules). Dynamic imports stay lazy inside the file:
// a module reached only through import() is evaluated when it is first imported.
const cliOptions = {
  ...common,
  entryPoints: [path.join(root, 'src/cli.ts')],
  format: 'cjs',
  // non-ASCII characters in strings and names escaped: see asciiOnly below
  charset: 'ascii',
  banner: { js: "var __burrowMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  // `node dist/cli.cjs ARGS` runs it too (the build asks it for its --version and --help)
  footer: { js: 'if (require.main === module) module.exports.main(process.argv.slice(2));' },
  define: { ...common.define, 'import.meta.url': '__burrowMetaUrl' },
  // import.meta.resolve is used only when running from the TypeScript sources (engine-supervisor.ts)
  logOverride: { 'empty-import-meta': 'silent' },
};
const bundleFiles = [path.join(outdir, 'cli.cjs'), ...LEAN_COMMANDS.map((command) => path.join(outdir, leanBundleName(command)))];
await Promise.all([
  build({ ...cliOptions, outfile: bundleFiles[0] }),
  // A lean bundle per short command: the CLI with that command alone, a smaller script for V8 to
  // load (its top level declares every function of every ES module in the bundle, zod's and the
  // console's included) and a smaller code cache to read. bin/run-bundle.cjs picks it.
  ...LEAN_COMMANDS.map((command, i) => build({ ...cliOptions, outfile: bundleFiles[i + 1], plugins: [...common.plugins, oneCommandPlugin(command)] })),
  // the emulator's database engine runs in its own process (engine-supervisor.ts forks dist/engine-host.js)
  build({
    ...common,
    entryPoints: { 'engine-host': path.join(root, 'src/emulator/database/engine-host.ts') },
    outdir,
    format: 'esm',
    // CommonJS dependencies inside an ESM bundle need a real `require` for Node built-ins.
    banner: { js: "import { createRequire as __burrowCreateRequire } from 'node:module'; const require = __burrowCreateRequire(import.meta.url);" },
  }),
]);
const bundles = bundleFiles.map(asciiOnly);
// `burrow --version` and `burrow --help` alone are answered from this file, without loading the
// bundle (bin/run-bundle.cjs); the text is the bundle's own answer, asked once here
const answer = (flag) => {
  const run = spawnSync(process.execPath, [path.join(outdir, 'cli.cjs'), flag], { encoding: 'utf8', env: { ...process.env, BURROW_CODE_CACHE: '0' } });
  if (run.status !== 0) throw new Error(`dist/cli.cjs ${flag} failed: ${run.stderr}`);
  return run.stdout;
};
writeFileSync(path.join(outdir, 'answers.json'), JSON.stringify({ '--version': answer('--version'), '--help': answer('--help') }));
// the code cache of bin/run-bundle.cjs is keyed by this: a new build never runs an old cache
const buildId = createHash('sha256');
for (const bundle of bundles) buildId.update(bundle);
writeFileSync(path.join(outdir, 'build-id'), buildId.digest('hex').slice(0, 32));

/**
 * The CLI with one command: the registry's imports of the others become a module that throws
 * notInThisBundle (src/runtime/bundle.ts) when imported, on which the launcher runs the full
 * bundle.
 */
function oneCommandPlugin(command) {
  const registry = path.join(root, 'src', 'commands', 'registry.ts');
  return {
    name: 'one-command',
    setup(b) {
      let found = false;
      b.onResolve({ filter: /^\.\/[a-z-]+$/ }, (args) => {
        if (args.importer !== registry || args.kind !== 'dynamic-import') return undefined;
        if (args.path === `./${command}`) {
          found = true;
          return undefined;
        }
        return { path: args.path, namespace: 'not-in-this-bundle' };
      });
      b.onLoad({ filter: /.*/, namespace: 'not-in-this-bundle' }, (args) => ({
        contents: `import { notInThisBundle } from './bundle';\nthrow notInThisBundle(${JSON.stringify(args.path)});\n`,
        resolveDir: path.join(root, 'src', 'runtime'),
        loader: 'ts',
      }));
      b.onEnd((result) => {
        if (result.errors.length === 0 && !found) throw new Error(`the registry does not import ./${command}: no lean bundle for it`);
      });
    },
  };
}
/**
 * bin/run-bundle.cjs reads the bundle as latin1, a copy where utf8 would be a decode of 3.9 MB at
 * every start. esbuild escapes non-ASCII characters everywhere but in comments; there, each one
 * becomes '?' ('??' for a character outside the BMP), so columns in UTF-16 units, and with them
 * the source map, stay right.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => '?'.repeat(c.length));
  if (ascii !== text) writeFileSync(file, ascii);
  return Buffer.from(ascii, 'latin1');
}

/** The build id is newer than the sources, the build scripts, the package files and the install. */
function upToDate() {
  let built;
  try {
    built = statSync(path.join(outdir, 'build-id')).mtimeMs;
    for (const f of ['cli.cjs', ...LEAN_COMMANDS.map(leanBundleName), 'engine-host.js', 'answers.json']) statSync(path.join(outdir, f));
  } catch {
    return false;
  }
  const inputs = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'].map((f) => path.join(root, f));
  const newest = (file) => {
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st) return 0;
    if (!st.isDirectory()) return st.mtimeMs;
    return readdirSync(file).reduce((m, name) => Math.max(m, newest(path.join(file, name))), st.mtimeMs);
  };
  return [...inputs, path.join(root, 'src'), path.join(root, 'scripts'), path.join(root, 'bin')].every((f) => newest(f) < built);
}

if (!quiet) console.log(`built ${path.relative(root, outdir) || '.'}/cli.cjs in ${Date.now() - started} ms`);
