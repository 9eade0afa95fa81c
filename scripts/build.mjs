// Bundles src/cli.ts into dist/, splitting at dynamic imports: the console (Ink, React) and the
// emulator load only when used, so `burrow get ...` does not pay for them.
// Pure-JS dependencies are bundled too (one file to read and compile instead of ~100, and React's
// production build); native packages stay external in node_modules.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { inkPatchesPlugin } from './ink-patches.mjs';
import { inkSafeTextPlugin } from './ink-safe-text.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const quiet = process.argv.includes('--quiet');
const outArg = process.argv.find((a) => a.startsWith('--outdir='));
const outdir = outArg ? path.resolve(outArg.slice('--outdir='.length)) : path.join(root, 'dist');
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const started = Date.now();
// Old chunks are removed only when asked: a binary that a test already started may still load them.
if (process.argv.includes('--clean')) rmSync(outdir, { recursive: true, force: true });
await build({
  // the emulator's database engine runs in its own process (engine-supervisor.ts forks dist/engine-host.js)
  entryPoints: [path.join(root, 'src/cli.ts'), path.join(root, 'src/emulator/database/engine-host.ts')],
  outdir,
  entryNames: '[name]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native addons and tools that must be resolved from node_modules at run time.
  external: ['libsql', '@libsql/*', '@lydell/node-pty', '@xterm/*', 'esbuild', 'fast-check', 'ajv', 'ajv-formats', 'react-devtools-core'],
  // CommonJS dependencies inside an ESM bundle need a real `require` for Node built-ins.
  banner: { js: "import { createRequire as __burrowCreateRequire } from 'node:module'; const require = __burrowCreateRequire(import.meta.url);" },
  sourcemap: 'linked',
  jsx: 'automatic',
  legalComments: 'none',
  // Ink keeps its render caches between frames and draws the frame after a key at once (ink-patches.mjs)
  // and every text node it draws passes the terminal sanitiser (ink-safe-text.mjs)
  plugins: [inkPatchesPlugin, inkSafeTextPlugin],
  logLevel: quiet ? 'warning' : 'info',
  define: {
    'process.env.BURROW_BUILD_VERSION': JSON.stringify(version),
    'process.env.NODE_ENV': '"production"',
  },
});
if (!quiet) console.log(`built ${path.relative(root, outdir) || '.'}/cli.js in ${Date.now() - started} ms`);
