// Bundles src/cli.ts into dist/cli.js (dependencies stay external in node_modules).
// One bundle keeps start-up fast: Node resolves one file of ours instead of dozens.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const quiet = process.argv.includes('--quiet');
const started = Date.now();
await build({
  entryPoints: [path.join(root, 'src/cli.ts')],
  // Split at dynamic imports: the console (Ink, React) and the emulator load only when used,
  // so `burrow get ...` does not pay for them (0.49 s -> 0.22 s for --version).
  outdir: path.join(root, 'dist'),
  entryNames: '[name]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  jsx: 'automatic',
  logLevel: quiet ? 'warning' : 'info',
  define: { 'process.env.BURROW_BUILD_VERSION': JSON.stringify(process.env.npm_package_version ?? '0.0.0') },
});
if (!quiet) console.log(`built dist/cli.js in ${Date.now() - started} ms`);
