#!/usr/bin/env node
// Tiny launcher: check the Node version, then run the bundled program (bin/run-bundle.cjs).
// CommonJS (bin/package.json): an ES module entry makes Node load its ES module loader first,
// about 20 of its own modules and 7-10 ms of every start.
'use strict';
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`burrow needs Node.js 20.19 or newer (this is ${process.versions.node}).\n`);
  process.exit(1);
}
require('./run-bundle.cjs').run(process.argv.slice(2));
