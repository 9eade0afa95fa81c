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
//    On a cache miss (a page of new rows), lines made only of printable ASCII and a set of
//    characters the console draws (· … ● ✖ ↑ ↓ box and block elements, Latin-1 letters; each one
//    column wide and never part of a larger grapheme) skip Intl.Segmenter in string-width and in
//    @alcalzone/ansi-tokenize and slice-ansi: the result is the same, without the segmentation. And a screen
//    row whose writes are the same as in an earlier frame reuses that frame's row string.
// 2. Key first: the first frame after a key is drawn at once instead of at the throttle's
//    trailing edge (up to 1000/maxFps ms when a clock or a poll drew a frame just before).
//    components/App.js notes when it reads input; ink.js flushes the throttle for the first commit
//    after it. Other updates stay throttled.
// 4. Start-up first: for the first 300 ms after Ink mounts every commit is drawn at once, so the
//    first complete frame (drawn by the second or third commit, once the status bar's effects
//    ran) does not wait 33-45 ms for the throttle's trailing edge.
// 5. No top-level await, so that the program can be one CommonJS file compiled with a V8 code
//    cache (bin/burrow.js): yoga-layout instantiates its embedded wasm module synchronously
//    (its loader's own instantiateWasm path; Node compiles a 90 KB module synchronously in
//    about a millisecond), and Ink's React devtools hook (only with DEV=true) is left out.
//    The synchronous path also never touches the global fetch, which yoga's asynchronous one
//    did: that loaded Node's own copy of undici (~20 ms of start-up) to decode a data: URL.

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
sharedOutputCaches.styledChars = new GenerationalCache(256);
const slices = new GenerationalCache(1024);
const sharedRows = new GenerationalCache(512);
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
  // get(): the grid rows are filled only for rows whose writes are new; the others reuse the
  // string an earlier frame made from the same writes (a row's string depends on nothing else).
  const start = s.indexOf('    get() {');
  const end = s.lastIndexOf('\n}\n');
  const body = s.slice(start, end);
  for (const anchor of [
    'const currentLine = output[y + offsetY];',
    'const characters = this.caches.getStyledChars(line);',
    'return styledCharsToString(lineWithoutEmptyItems).trimEnd();',
  ]) {
    if (start < 0 || end < start || !body.includes(anchor)) fail(file, anchor);
  }
  return s.slice(0, start) + OUTPUT_GET + s.slice(end);
}

const OUTPUT_GET = `    get() {
        const height = this.height;
        // per row: the writes that reach it, in order (x, line, x, line...), and their key
        const writes = [];
        const keys = [];
        for (let y = 0; y < height; y++) {
            writes.push(null);
            keys.push('');
        }
        const clips = [];
        for (const operation of this.operations) {
            if (operation.type === 'clip') {
                clips.push(operation.clip);
            }
            if (operation.type === 'unclip') {
                clips.pop();
            }
            if (operation.type === 'write') {
                const { text, transformers } = operation;
                let { x, y } = operation;
                let lines = text.split('\\n');
                const clip = clips.at(-1);
                if (clip) {
                    const clipHorizontally = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
                    const clipVertically = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
                    if (clipHorizontally) {
                        const width = this.caches.getWidestLine(text);
                        if (x + width < clip.x1 || x > clip.x2) {
                            continue;
                        }
                    }
                    if (clipVertically) {
                        const height = lines.length;
                        if (y + height < clip.y1 || y > clip.y2) {
                            continue;
                        }
                    }
                    if (clipHorizontally) {
                        lines = lines.map(line => {
                            const from = x < clip.x1 ? clip.x1 - x : 0;
                            const width = this.caches.getStringWidth(line);
                            const to = x + width > clip.x2 ? clip.x2 - x : width;
                            return cachedSliceAnsi(line, from, to);
                        });
                        if (x < clip.x1) {
                            x = clip.x1;
                        }
                    }
                    if (clipVertically) {
                        const from = y < clip.y1 ? clip.y1 - y : 0;
                        const height = lines.length;
                        const to = y + height > clip.y2 ? clip.y2 - y : height;
                        lines = lines.slice(from, to);
                        if (y < clip.y1) {
                            y = clip.y1;
                        }
                    }
                }
                let offsetY = 0;
                for (let [index, line] of lines.entries()) {
                    const row = y + offsetY;
                    // as Ink: a line off the grid is skipped, and so are the lines after it
                    if (!(row >= 0 && row < height && Number.isInteger(row))) {
                        continue;
                    }
                    for (const transformer of transformers) {
                        line = transformer(line, index);
                    }
                    (writes[row] ??= []).push(x, line);
                    keys[row] += x + '\\u0001' + line + '\\u0002';
                    offsetY++;
                }
            }
        }
        const out = [];
        for (let y = 0; y < height; y++) {
            const rowWrites = writes[y];
            if (rowWrites === null) {
                out.push('');
                continue;
            }
            const key = this.width + '\\u0003' + keys[y];
            let text = sharedRows.get(key);
            if (text === undefined) {
                const currentLine = [];
                for (let x = 0; x < this.width; x++) {
                    currentLine.push({
                        type: 'char',
                        value: ' ',
                        fullWidth: false,
                        styles: [],
                    });
                }
                for (let w = 0; w < rowWrites.length; w += 2) {
                    const characters = this.caches.getStyledChars(rowWrites[w + 1]);
                    let offsetX = rowWrites[w];
                    for (const character of characters) {
                        currentLine[offsetX] = character;
                        const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
                        if (characterWidth > 1) {
                            for (let index = 1; index < characterWidth; index++) {
                                currentLine[offsetX + index] = {
                                    type: 'char',
                                    value: '',
                                    fullWidth: false,
                                    styles: character.styles,
                                };
                            }
                        }
                        offsetX += characterWidth;
                    }
                }
                const lineWithoutEmptyItems = currentLine.filter(item => item !== undefined);
                text = styledCharsToString(lineWithoutEmptyItems).trimEnd();
                sharedRows.set(key, text);
            }
            out.push(text);
        }
        return {
            output: out.join('\\n'),
            height,
        };
    }`;

/**
 * Characters that are one column wide and a grapheme of their own (checked against string-width
 * and ansi-tokenize by test/unit/build-ink-patches.test.ts), as a regular expression class body.
 */
export const NARROW_CLASS =
  '\\u00A0-\\u00AC\\u00AE-\\u00FF\\u2013\\u2014\\u2026\\u2039\\u203A\\u2190-\\u2193\\u2500\\u2502\\u2581-\\u2588\\u2591-\\u2593\\u25B8\\u25CF\\u26A0\\u2714\\u2716\\u275A';

/**
 * 7. An Intl.Segmenter made on first use, not when the module loads: the first one in a process
 *    costs about 10 ms of ICU set-up, and text in the narrow set never needs one (string-width,
 *    ansi-tokenize and slice-ansi each made theirs at load, so every command that printed a
 *    table paid for it).
 */
function lazySegmenter(source, file, declaration, name, args) {
  return once(
    source,
    file,
    declaration,
    `let ${name}Made;\nconst ${name} = { segment: (text) => (${name}Made ??= new Intl.Segmenter(${args})).segment(text) };`,
  );
}

export function patchStringWidth(source) {
  const file = 'string-width/index.js';
  let s = once(source, file, 'if (/^[\\u0020-\\u007E]*$/.test(string)) {', `if (/^[\\u0020-\\u007E${NARROW_CLASS}]*$/.test(string)) {`);
  s = lazySegmenter(s, file, 'const segmenter = new Intl.Segmenter();', 'segmenter', '');
  return lazyRgiEmoji(s, file);
}

/**
 * 8. string-width's RGI_Emoji pattern (a property of strings, v flag) compiled on first use: V8
 *    builds its whole set of emoji sequences when the expression is created, 20-25 ms at every
 *    start of every command that loads string-width, and text in the narrow set never reaches it.
 *    Its one use is `rgiEmojiRegex.test(segment)`.
 */
function lazyRgiEmoji(source, file) {
  if (source.split('rgiEmojiRegex').length !== 3 || !source.includes('rgiEmojiRegex.test(segment)')) fail(file, 'rgiEmojiRegex used once, by test()');
  return once(
    source,
    file,
    'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
    'let rgiEmojiRegexMade;\nconst rgiEmojiRegex = { test: (text) => (rgiEmojiRegexMade ??= /^\\p{RGI_Emoji}$/v).test(text) };',
  );
}

/** The older string-width that wrap-ansi and widest-line (Ink's text wrapping) bring along. */
export function patchNestedStringWidth(source) {
  return lazySegmenter(source, 'wrap-ansi/node_modules/string-width/index.js', 'const segmenter = new Intl.Segmenter();', 'segmenter', '');
}

export function patchTokenize(source) {
  const file = '@alcalzone/ansi-tokenize/build/tokenize.js';
  let s = once(
    source,
    file,
    'export function tokenize(str, endChar = Number.POSITIVE_INFINITY) {',
    `// One grapheme per code unit: ASCII but CR (CR LF is one grapheme), and the narrow set.
const SIMPLE = /^[\\u0000-\\u000C\\u000E-\\u007F${NARROW_CLASS}]*$/;
function* simpleSegments(str) {
    for (let index = 0; index < str.length; index++) {
        yield { segment: str[index], index };
    }
}
export function tokenize(str, endChar = Number.POSITIVE_INFINITY) {`,
  );
  s = once(
    s,
    file,
    'for (const { segment, index } of segmenter.segment(str)) {',
    'for (const { segment, index } of (SIMPLE.test(str) ? simpleSegments(str) : segmenter.segment(str))) {',
  );
  return lazySegmenter(
    s,
    file,
    'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
    'segmenter',
    "undefined, { granularity: 'grapheme' }",
  );
}

export function patchSliceAnsi(source) {
  const file = 'slice-ansi/tokenize-ansi.js';
  let s = once(
    source,
    file,
    'export default function tokenizeAnsi(string, {endCharacter = Number.POSITIVE_INFINITY} = {}) {',
    `const SIMPLE = /^[\\u0000-\\u000C\\u000E-\\u007F${NARROW_CLASS}]*$/;
function simpleSegments(string) {
	return {
		containing(index) {
			return index >= 0 && index < string.length ? {segment: string[index], index, input: string} : undefined;
		},
	};
}
export default function tokenizeAnsi(string, {endCharacter = Number.POSITIVE_INFINITY} = {}) {`,
  );
  s = once(
    s,
    file,
    '\tconst graphemeSegments = GRAPHEME_SEGMENTER.segment(string);',
    '\tconst graphemeSegments = SIMPLE.test(string) ? simpleSegments(string) : GRAPHEME_SEGMENTER.segment(string);',
  );
  s = once(
    s,
    file,
    'function areValuesInSameGrapheme(leftValue, rightValue) {',
    `function areValuesInSameGrapheme(leftValue, rightValue) {
	if (SIMPLE.test(leftValue) && SIMPLE.test(rightValue)) {
		return false;
	}`,
  );
  return lazySegmenter(
    s,
    file,
    "const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});",
    'GRAPHEME_SEGMENTER',
    "undefined, { granularity: 'grapheme' }",
  );
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

/** How long after mount every commit is drawn at once (start-up frames are few and wanted). */
const STARTUP_UNTHROTTLED_MS = 300;

export function patchInk(source) {
  return once(
    source,
    'ink.js',
    `            this.rootNode.onRender = () => {
                this.hasPendingThrottledRender = true;
                throttled();
            };`,
    `            const mountedAt = performance.now();
            this.rootNode.onRender = () => {
                this.hasPendingThrottledRender = true;
                throttled();
                const inputAt = globalThis[${INPUT_AT}];
                if (inputAt !== undefined && inputAt !== this.answeredInputAt) {
                    this.answeredInputAt = inputAt;
                    throttled.flush();
                }
                else if (performance.now() - mountedAt < ${STARTUP_UNTHROTTLED_MS}) {
                    throttled.flush();
                }
            };`,
  );
}

// 3. Styled characters with shared shapes: ansi-tokenize builds each one as {...token, styles},
//    and V8 gives every object made by that spread plus a property its own hidden class (map,
//    descriptor array, property array: about 300 bytes a character instead of 56). With the
//    cache of styled characters kept between frames that was 25-35 MB of a log view's heap.
//    Characters in a run of the same styles also share one styles array (read, never changed).
export function patchStyledChars(source) {
  const file = '@alcalzone/ansi-tokenize/build/styledChars.js';
  let s = once(source, file, '    let codes = [];\n    const ret = [];', '    let codes = [];\n    let styles = null;\n    const ret = [];');
  s = once(
    s,
    file,
    '            codes = reduceAnsiCodesIncremental(codes, [token]);',
    '            codes = reduceAnsiCodesIncremental(codes, [token]);\n            styles = null;',
  );
  s = once(
    s,
    file,
    `            ret.push({
                ...token,
                styles: [...codes],
            });`,
    `            if (styles === null) {
                styles = [...codes];
            }
            ret.push({ type: token.type, value: token.value, fullWidth: token.fullWidth, styles });`,
  );
  return s;
}

export function patchYogaWasmLoader(source) {
  const file = 'yoga-layout/dist/binaries/yoga-wasm-base64-esm.js';
  return once(
    source,
    file,
    '(function(){return w||"function"!=typeof WebAssembly.instantiateStreaming',
    'if(h.instantiateSynchronously){a(new WebAssembly.Instance(new WebAssembly.Module(wa()),d));return{}}(function(){return w||"function"!=typeof WebAssembly.instantiateStreaming',
  );
}

export function patchYogaIndex(source) {
  return once(
    source,
    'yoga-layout/dist/src/index.js',
    'const Yoga = wrapAssembly(await loadYoga());',
    '// the module object is complete when loadYoga returns (instantiated synchronously)\nconst yogaModule = { instantiateSynchronously: true };\nloadYoga(yogaModule);\nconst Yoga = wrapAssembly(yogaModule);',
  );
}

// 6. undici's cookie helpers read globalThis.Headers when undici loads, which makes Node load
//    its own internal copy of undici (5-15 ms) for a brand check of cookie functions burrow
//    never calls; they check undici's own Headers only.
export function patchUndiciCookies(source) {
  return once(source, 'undici/lib/web/cookies/index.js', '[Headers, globalThis.Headers].filter(Boolean)', '[Headers]');
}

export function patchReconciler(source) {
  const file = 'reconciler.js';
  let s = once(
    source,
    file,
    "        await import('./devtools.js');",
    "        throw Object.assign(new Error('React devtools are not part of the burrow bundle'), { code: 'ERR_MODULE_NOT_FOUND' });",
  );
  s = once(s, file, '    ? await loadPackageJson()', '    ? { name: undefined, version: undefined }');
  return s;
}

/** File (under ink/build/) -> patch. */
export const INK_PATCHES = {
  'output.js': patchOutput,
  '../../string-width/index.js': patchStringWidth,
  '../../wrap-ansi/node_modules/string-width/index.js': patchNestedStringWidth,
  '../../@alcalzone/ansi-tokenize/build/tokenize.js': patchTokenize,
  '../../@alcalzone/ansi-tokenize/build/styledChars.js': patchStyledChars,
  '../../slice-ansi/tokenize-ansi.js': patchSliceAnsi,
  'measure-text.js': patchMeasureText,
  'wrap-text.js': patchWrapText,
  'render-node-to-output.js': patchRenderNodeToOutput,
  'components/App.js': patchApp,
  'ink.js': patchInk,
  '../../yoga-layout/dist/binaries/yoga-wasm-base64-esm.js': patchYogaWasmLoader,
  '../../yoga-layout/dist/src/index.js': patchYogaIndex,
  'reconciler.js': patchReconciler,
  '../../undici/lib/web/cookies/index.js': patchUndiciCookies,
};

/** esbuild plugin applying the patches (every one must apply, or the build fails). */
export const inkPatchesPlugin = {
  name: 'ink-patches',
  setup(build) {
    build.onLoad(
      {
        filter:
          /[\\/]node_modules[\\/](ink[\\/]build|string-width|slice-ansi|@alcalzone[\\/]ansi-tokenize[\\/]build|yoga-layout[\\/]dist[\\/](binaries|src)|undici[\\/]lib[\\/]web[\\/]cookies)[\\/][^\\/]*\.js$|[\\/]node_modules[\\/]ink[\\/]build[\\/]components[\\/]App\.js$/,
      },
      async (args) => {
        const path = args.path.replace(/\\/g, '/');
        const rel = path.includes('/node_modules/ink/build/')
          ? path.split('/node_modules/ink/build/')[1]
          : `../../${path.split('/node_modules/').slice(1).join('/node_modules/')}`;
        const patch = INK_PATCHES[rel];
        if (!patch) return undefined;
        const { readFile } = await import('node:fs/promises');
        return { contents: patch(await readFile(args.path, 'utf8')), loader: 'js' };
      },
    );
  },
};
