#!/usr/bin/env node
// Tiny launcher: check the Node version, then load the bundled CLI.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`burrow needs Node.js 20.19 or newer (this is ${process.versions.node}).\n`);
  process.exit(1);
}
try {
  const { main } = await import('../dist/cli.js');
  await main(process.argv.slice(2));
} catch (error) {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    process.stderr.write('burrow is not built yet: run `npm run build` (npm start does it for you).\n');
    process.exit(1);
  }
  throw error;
}
