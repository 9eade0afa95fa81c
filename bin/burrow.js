#!/usr/bin/env node
// Tiny launcher: check the Node version, then run the bundled program (bin/run-bundle.cjs).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`burrow needs Node.js 20.19 or newer (this is ${process.versions.node}).\n`);
  process.exit(1);
}
const { createRequire } = await import('node:module');
await createRequire(import.meta.url)('./run-bundle.cjs').run(process.argv.slice(2));
