// Build-time patches of Ink 6.8, applied by scripts/build.mjs to the bundle (tests under tsx run
// Ink as published). Each one throws when its file is not the version it was written for, so an
// Ink upgrade fails the build instead of silently dropping a patch.
//
// Why (node --cpu-prof of the console scrolling 100,000 log records in 120x40): a frame took
// 20-25 ms, three quarters of it in Ink measuring and tokenizing text it had measured and
// tokenized one frame earlier, because its caches live in the per-frame Output object, and the
// frame after a key often waited for the frame-rate throttle.
//
// 1. Caches kept between frames, bounded (two generations: a hit moves an entry to the current
//    one; when the current one is full it becomes the old one and the old one is dropped):
//    output.js (styled characters, widths, horizontal clipping), measure-text.js and
//    wrap-text.js (whose caches were unbounded: a log view that follows for hours grew them with
//    every row ever drawn), render-node-to-output.js (text width through measure-text's cache).
//    Cached values are only read, never changed, so sharing them changes no output.
// 2. Key first: the first frame after a key is drawn at once instead of at the throttle's
//    trailing edge (up to 1000/maxFps ms when a clock or a poll drew a frame just before).
//    components/App.js notes when it reads input; ink.js flushes the throttle for the first commit
//    after it. Other updates stay throttled.

const CACHE_CLASS = `
class GenerationalCache {
    constructor(limit) {
        this.limit = limit;
        this.current = new Map();
        this.previous = new Map();
    }
    get(key) {
        let value = this.current.get(key);
        if (value !== undefined) {
            return value;
        }
        value = this.previous.get(key);
        if (value !== undefined) {
            this.set(key, value);
        }
        return value;
    }
    set(key, value) {
        if (this.current.size >= this.limit) {
            this.previous = this.current;
            this.current = new Map();
        }
        this.current.set(key, value);
        return this;
    }
}
`;

function fail(file, what) {
  throw new Error(`ink/build/${file} is not the version scripts/ink-patches.mjs expects (Ink 6.8): ${what} not found; update the patch`);
}

/** Replaces `from` (exactly once in the source) with `to`. */
function once(source, file, from, to) {
  if (source.split(from).length !== 2) fail(file, JSON.stringify(from.slice(0, 60)));
  return source.replace(from, () => to);
}

/** Inserts the cache class after the last import. */
function withCacheClass(source, file) {
  const imports = [...source.matchAll(/^import .*;$/gm)];
  if (!imports.length) fail(file, 'an import');
  const last = imports[imports.length - 1];
  const at = last.index + last[0].length + 1;
  return source.slice(0, at) + CACHE_CLASS + source.slice(at);
}

export function patchOutput(source) {
  const file = 'output.js';
  let s = withCacheClass(source, file);
  s = once(
    s,
    file,
    'export default class Output {',
    `const sharedOutputCaches = new OutputCaches();
sharedOutputCaches.widths = new GenerationalCache(4096);
sharedOutputCaches.blockWidths = new GenerationalCache(1024);
sharedOutputCaches.styledChars = new GenerationalCache(512);
const slices = new GenerationalCache(1024);
const cachedSliceAnsi = (line, from, to) => {
    const key = from + ':' + to + ':' + line;
    let value = slices.get(key);
    if (value === undefined) {
        value = sliceAnsi(line, from, to);
        slices.set(key, value);
    }
    return value;
};
export default class Output {`,
  );
  s = once(s, file, 'caches = new OutputCaches();', 'caches = sharedOutputCaches;');
  s = once(s, file, 'return sliceAnsi(line, from, to);', 'return cachedSliceAnsi(line, from, to);');
  return s;
}

export function patchMeasureText(source) {
  const file = 'measure-text.js';
  return once(withCacheClass(source, file), file, 'const cache = new Map();', 'const cache = new GenerationalCache(2048);');
}

export function patchWrapText(source) {
  const file = 'wrap-text.js';
  let s = once(withCacheClass(source, file), file, 'const cache = {};', 'const cache = new GenerationalCache(2048);');
  s = once(s, file, 'const cachedText = cache[cacheKey];', 'const cachedText = cache.get(cacheKey);');
  s = once(s, file, 'cache[cacheKey] = wrappedText;', 'cache.set(cacheKey, wrappedText);');
  return s;
}

export function patchRenderNodeToOutput(source) {
  const file = 'render-node-to-output.js';
  let s = once(source, file, "import widestLine from 'widest-line';", "import measureText from './measure-text.js';");
  s = once(s, file, 'const currentWidth = widestLine(text);', 'const currentWidth = measureText(text).width;');
  if (/\bwidestLine\b/.test(s)) fail(file, 'no other use of widestLine');
  return s;
}

const INPUT_AT = "Symbol.for('ink.lastInputAt')";
const READ_LOOP = 'while ((chunk = stdin.read()) !== null) {';

export function patchApp(source) {
  return once(source, 'components/App.js', READ_LOOP, `${READ_LOOP}\n            globalThis[${INPUT_AT}] = performance.now();`);
}

export function patchInk(source) {
  return once(
    source,
    'ink.js',
    `            this.rootNode.onRender = () => {
                this.hasPendingThrottledRender = true;
                throttled();
            };`,
    `            this.rootNode.onRender = () => {
                this.hasPendingThrottledRender = true;
                throttled();
                const inputAt = globalThis[${INPUT_AT}];
                if (inputAt !== undefined && inputAt !== this.answeredInputAt) {
                    this.answeredInputAt = inputAt;
                    throttled.flush();
                }
            };`,
  );
}

/** File (under ink/build/) -> patch. */
export const INK_PATCHES = {
  'output.js': patchOutput,
  'measure-text.js': patchMeasureText,
  'wrap-text.js': patchWrapText,
  'render-node-to-output.js': patchRenderNodeToOutput,
  'components/App.js': patchApp,
  'ink.js': patchInk,
};

/** esbuild plugin applying the patches (every one must apply, or the build fails). */
export const inkPatchesPlugin = {
  name: 'ink-patches',
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/].*\.js$/ }, async (args) => {
      const rel = args.path.replace(/\\/g, '/').split('/ink/build/')[1];
      const patch = INK_PATCHES[rel];
      if (!patch) return undefined;
      const { readFile } = await import('node:fs/promises');
      return { contents: patch(await readFile(args.path, 'utf8')), loader: 'js' };
    });
  },
};
