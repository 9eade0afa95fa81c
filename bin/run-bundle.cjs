'use strict';
// Runs the bundled program (dist/cli.cjs, or the lean bundle of a short command) with a V8 code
// cache. Node 20 has no compile cache for modules (module.enableCompileCache came in Node 22),
// and compiling the 3.7 MB bundle took a third of the console's start-up; with cached data V8
// skips parsing and compiling what the last run of the same command compiled.
//
// The cache is never needed for correctness: a missing, unreadable, corrupt, stale or foreign
// cache file means a normal start, and the file is written again. It lives under the XDG cache
// directory ($XDG_CACHE_HOME/burrow/code-cache, else ~/.cache/burrow/code-cache), one file per
// command, named after the bundle's build id. Files are written 0600 in a 0700 directory, and a
// file that is not the user's own or that others could write is never read: cached data is code.
// Nor is anything but a regular file, and no file type can make the open wait (a planted FIFO).
const fs = require('node:fs');
const path = require('node:path');

const DIST = path.join(__dirname, '..', 'dist');
const BUNDLE = path.join(DIST, 'cli.cjs');
/**
 * Commands with a lean bundle of their own (scripts/build.mjs makes them): the CLI with that
 * command alone, a smaller script and code cache than the full bundle's.
 */
const LEAN_COMMANDS = ['get', 'logs'];
const leanBundleName = (command) => `cli.${command}.cjs`;
const MAGIC = 'burrow-code-cache-1\n';
/** Set by the program when start-up is over (the console's first frame): the cache is made then. */
const STARTED = Symbol.for('burrow.codeCache.startupDone');

/** The heap flags the full-screen programs set (src/app/heap-tuning.ts, which says why). */
const HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=25'];

/**
 * V8 flags set before the bundle is compiled. Cached code is accepted only under the flags it
 * was made with, so the flags the program would set later (the heap flags of the console and the
 * SQL shell) are set here, first, the same on every run of the command: set only later, they
 * made every console start reject its cache. And a command that makes a request compiles undici's
 * HTTP parser (WebAssembly) with Liftoff, then V8 optimizes it again on a background thread,
 * which Node waits for before it exits (80-100 ms measured, more than the request): short
 * commands keep the Liftoff code. Node's own modules are loaded before (preloadBuiltins).
 */
function v8FlagsFor(kind) {
  if (kind === 'console') return HEAP_FLAGS;
  if (kind === 'sql') return [...HEAP_FLAGS, '--liftoff-only'];
  return ['--liftoff-only'];
}

/** Which cache a command line uses: version and help share one, each command has its own. */
function cacheKind(argv) {
  if (argv.some((a) => a === '--version' || a === '-v' || a === '--help' || a === '-h')) return 'help';
  const values = new Set(['--profile', '--base-url', '--logging-url', '--api-key', '--output', '-o']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (values.has(a)) i++;
    else if (!a.startsWith('-')) return /^[a-z][a-z-]{0,15}$/.test(a) ? a : 'other';
  }
  return 'console';
}

function cacheDirectory(env) {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(require('node:os').homedir(), '.cache');
  return path.join(base, 'burrow', 'code-cache');
}

/** The header that must match for a cache file to be used: this bundle, this Node, this file. */
function expectedHeader(buildId, bundleStat) {
  return `${MAGIC}${buildId} ${process.version} ${process.arch} ${bundleStat.size} ${Math.trunc(bundleStat.mtimeMs)}\n`;
}

/** CRC-32 (zlib's, native): node:crypto would cost more to load than the whole check. */
function checksum(buffer) {
  return require('node:zlib').crc32(buffer).toString(16);
}

/** Node's own modules loaded before the launcher ran: loaded on every start, never listed. */
const LOADED_AT_START = new Set(process.moduleLoadList);
const NEVER_PRELOADED = new Set(['punycode', 'sys', 'wasi', 'test', 'inspector', 'inspector/promises', 'trace_events', 'repl']);

/**
 * A documented module: one a program may require first, in any order. Node's parts with a
 * leading underscore (_tls_wrap, _http_client) are in import cycles with their module: required
 * before it, tls came up without createSecureContext.
 */
function isPreloadable(id, Module) {
  return /^[a-z][a-z0-9_/]{0,39}$/.test(id) && !NEVER_PRELOADED.has(id) && Module.isBuiltin(id);
}

/** The built-in modules (documented names) loaded since the launcher started. */
function builtinsLoadedSinceStart() {
  const Module = require('node:module');
  const ids = [];
  for (const entry of process.moduleLoadList) {
    if (LOADED_AT_START.has(entry) || !entry.startsWith('NativeModule ')) continue;
    const id = entry.slice('NativeModule '.length);
    if (isPreloadable(id, Module)) ids.push(id);
  }
  return ids;
}

/**
 * Setting a V8 flag changes V8's flag hash, and Node's own modules (net, http, streams) carry
 * code caches made under the default flags: every one loaded after the program's flags are set
 * is compiled from source, three to four times slower (a third of `get`'s time). The cache file
 * lists the built-in modules the run that made it loaded, and they are loaded before the flags
 * are set. A name that is not a built-in is skipped: the list is a hint, never needed.
 */
function preloadBuiltins(ids) {
  const Module = require('node:module');
  const loaded = [];
  for (const id of ids) {
    if (!isPreloadable(id, Module)) continue;
    try {
      require(`node:${id}`);
      loaded.push(id);
    } catch {
      // not in this Node
    }
  }
  return loaded;
}

/** The cached data and its list of built-ins, or undefined when there is none that may be used. */
function readCache(file, header) {
  let fd;
  try {
    // O_NONBLOCK: a FIFO (or a device) planted under the name would make a blocking open wait
    // for a writer forever, before the type check below could refuse it
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    const stat = fs.fstatSync(fd);
    const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
    if (!stat.isFile() || !mine || (stat.mode & 0o022) !== 0) return undefined;
    const data = fs.readFileSync(fd);
    const headerBytes = Buffer.byteLength(header);
    // header, then a line with the payload's length, its CRC-32 and the built-ins, then the payload
    if (data.length < headerBytes || data.toString('latin1', 0, headerBytes) !== header) return undefined;
    const lineEnd = data.indexOf(10, headerBytes);
    if (lineEnd < 0) return undefined;
    const [length, sum, builtins = ''] = data.toString('latin1', headerBytes, lineEnd).split(' ');
    const payload = data.subarray(lineEnd + 1);
    if (payload.length !== Number(length) || checksum(payload) !== sum) return undefined;
    return { payload, builtins: builtins.split(',').filter(Boolean) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeCache(dir, file, header, payload, builtins) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.writeSync(fd, `${header}${payload.length} ${checksum(payload)} ${builtins.join(',')}\n`);
      fs.writeSync(fd, payload);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
    removeOlderBuilds(dir, path.basename(file));
    return true;
  } catch {
    // a read-only or full cache directory: the next start compiles again
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // there was no directory to write in
    }
    return false;
  }
}

/** Files of other builds of the same command are of no further use. */
function removeOlderBuilds(dir, keep) {
  try {
    const kind = keep.split('.')[1];
    for (const name of fs.readdirSync(dir)) {
      if (name !== keep && name.split('.')[1] === kind && name.endsWith('.v8')) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // nothing to clean, or not allowed to
  }
}

function readBundle(file) {
  try {
    const source = fs.readFileSync(file, 'latin1');
    const stat = fs.statSync(file);
    const buildId = fs.readFileSync(path.join(DIST, 'build-id'), 'latin1').trim();
    return { source, stat, buildId };
  } catch (error) {
    if (error && error.code === 'ENOENT') {
      process.stderr.write('burrow is not built yet: run `npm run build` (npm start does it for you).\n');
      process.exit(1);
    }
    throw error;
  }
}

/** `burrow --version` or `burrow --help` alone: the bundle's own answer, saved by the build. */
function answerFromBuild(argv) {
  if (argv.length !== 1) return undefined;
  const flag = { '-v': '--version', '--version': '--version', '-h': '--help', '--help': '--help' }[argv[0]];
  if (flag === undefined) return undefined;
  try {
    return JSON.parse(fs.readFileSync(path.join(DIST, 'answers.json'), 'utf8'))[flag];
  } catch {
    return undefined;
  }
}

/**
 * Straight to file descriptor 1: process.stdout would load Node's stream modules first (a tenth
 * of `burrow --version`'s own time). A closed pipe ends it quietly, as the program does.
 */
function writeAnswer(text) {
  let bytes = Buffer.from(text);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(fs.writeSync(1, bytes));
  } catch (error) {
    // a non-blocking stdout that is full: Node's stream waits for it
    if (error && error.code === 'EAGAIN') process.stdout.write(bytes);
    else if (!error || error.code !== 'EPIPE') {
      process.stderr.write(`burrow: cannot write to standard output: ${(error && error.code) || error}\n`);
      process.exitCode = 1;
    }
  }
}

async function run(argv) {
  const answer = answerFromBuild(argv);
  if (typeof answer === 'string') {
    writeAnswer(answer);
    return;
  }
  const kind = cacheKind(argv);
  if (LEAN_COMMANDS.includes(kind)) {
    // 'other-bundle': the lean bundle read the command line otherwise and holds not its command
    if ((await runBundle(path.join(DIST, leanBundleName(kind)), kind, argv)) !== 'other-bundle') return;
  }
  await runBundle(BUNDLE, LEAN_COMMANDS.includes(kind) ? 'other' : kind, argv);
}

let flagsSet = false;

async function runBundle(bundle, kind, argv) {
  const { source, stat, buildId } = readBundle(bundle);
  const dir = cacheDirectory(process.env);
  const file = path.join(dir, `${buildId}.${kind}.v8`);
  const header = expectedHeader(buildId, stat);
  const enabled = process.env.BURROW_CODE_CACHE !== '0';
  const cache = enabled ? readCache(file, header) : undefined;
  const cachedData = cache?.payload;
  const debug = process.env.BURROW_CODE_CACHE_DEBUG === '1';
  if (!flagsSet) {
    flagsSet = true;
    const preloaded = cache ? preloadBuiltins(cache.builtins) : [];
    if (debug) process.stderr.write(`preloaded: ${preloaded.join(',')}\n`);
    for (const flag of v8FlagsFor(kind)) require('node:v8').setFlagsFromString(flag);
  }
  const vm = require('node:vm');
  const Module = require('node:module');
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  // BURROW_CODE_CACHE_DEBUG=1: one line on stderr saying what happened (for tests)
  const report = debug ? (what) => process.stderr.write(`code cache: ${what}\n`) : () => {};
  if (debug) process.stderr.write(`bundle: ${path.basename(bundle)}\n`);
  if (!enabled) report('off');
  else if (cachedData === undefined) report(fs.existsSync(file) ? 'unusable' : 'none');
  else report(script.cachedDataRejected ? 'rejected' : 'used');
  if (enabled && (cachedData === undefined || script.cachedDataRejected)) {
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      report(writeCache(dir, file, header, script.createCachedData(), builtinsLoadedSinceStart()) ? 'written' : 'not written');
    };
    globalThis[STARTED] = write;
    process.once('exit', write);
  }
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(bundle), module, bundle, DIST);
  return module.exports.main(argv);
}

module.exports = { run, cacheKind, cacheDirectory, HEAP_FLAGS, LEAN_COMMANDS, leanBundleName };
