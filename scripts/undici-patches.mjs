// Build-time patches of undici 7.30, applied by scripts/build.mjs to the bundle (tests under tsx
// run undici as published). Each one throws when its file is not the version it was written for,
// so an undici upgrade fails the build instead of silently dropping a patch.
//
// Why: undici's client loaded Node's http2 (and with it tls and crypto) and http modules when it
// was first evaluated, before the first request: 19 of Node's own modules to compile, about a
// tenth of `burrow get`'s time against an emulator. burrow never negotiates HTTP/2 (its connector
// offers only http/1.1: allowH2 stays off, src/api/http.ts), and undici needs http only for a
// default (the --max-http-header-size of the process) and to recognise an IncomingMessage it is
// asked to destroy.
//
// 1. client-h2.js: node:http2 is treated as absent, the case undici already handles (no
//    HTTP/2 on this Node); HTTPS still loads tls when it connects.
// 2. client.js: node:http is loaded when a client is made without maxHeaderSize, for its default.
// 3. core/util.js: node:http is loaded when a stream is destroyed, to compare its class.

function fail(file, what) {
  throw new Error(`undici/lib/${file} is not the version scripts/undici-patches.mjs expects (undici 7.30): ${what} not found; update the patch`);
}

/** Replaces `from` (exactly once in the source) with `to`. */
function once(source, file, from, to) {
  if (source.split(from).length !== 2) fail(file, JSON.stringify(from.slice(0, 60)));
  return source.replace(from, () => to);
}

const PATCHES = {
  'dispatcher/client-h2.js': (s, file) => once(s, file, "  http2 = require('node:http2')", "  throw new Error('burrow does not use HTTP/2')"),
  'dispatcher/client.js': (s, file) => {
    s = once(s, file, "const http = require('node:http')\n", '');
    return once(
      s,
      file,
      `const getDefaultNodeMaxHeaderSize = http &&
  http.maxHeaderSize &&
  Number.isInteger(http.maxHeaderSize) &&
  http.maxHeaderSize > 0
  ? () => http.maxHeaderSize
  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }`,
      `const getDefaultNodeMaxHeaderSize = () => {
  const { maxHeaderSize } = require('node:http')
  if (Number.isInteger(maxHeaderSize) && maxHeaderSize > 0) return maxHeaderSize
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}`,
    );
  },
  'core/util.js': (s, file) => {
    s = once(s, file, "const { IncomingMessage } = require('node:http')\n", '');
    return once(
      s,
      file,
      'Object.getPrototypeOf(stream).constructor === IncomingMessage',
      "Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage",
    );
  },
};

/** esbuild plugin applying the patches (every one must apply, or the build fails). */
export const undiciPatchesPlugin = {
  name: 'undici-patches',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]undici[\\/]lib[\\/](dispatcher[\\/]client(-h2)?|core[\\/]util)\.js$/ }, async (args) => {
      const file = args.path.replace(/\\/g, '/').split('/node_modules/undici/lib/')[1];
      const patch = PATCHES[file];
      if (!patch) return undefined;
      const { readFile } = await import('node:fs/promises');
      return { contents: patch(await readFile(args.path, 'utf8'), file), loader: 'js' };
    });
  },
};
