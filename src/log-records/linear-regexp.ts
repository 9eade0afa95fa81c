import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

/**
 * Patterns a person types (the logs view's `/`, alert rules' `field~pattern`) run over text that
 * anyone on the internet chooses (user agents, paths, referers). JavaScript's RegExp backtracks:
 * `bot.*crawl` over a user agent of `bot ` 2,000 times, or `(a+)+$`, takes seconds to forever.
 * LinearRegExp is a RegExp whose matching is done by RE2 (re2js, pure JavaScript): time linear in
 * the text whatever the pattern; a pattern JavaScript's matcher runs in bounded time on any text
 * (no repetition: literals, alternatives, classes; see scan) keeps V8's faster matcher.
 * Every RegExp method (test, exec, match, replace, split, matchAll) goes through its exec, so code
 * that takes a RegExp keeps working.
 *
 * The pattern must be valid for both: JavaScript syntax, with what RE2 cannot do in linear time
 * refused (lookahead, lookbehind, backreferences), with a message saying so
 * (UnsupportedPatternError). The flags i, m and s mean what they mean in JavaScript; g, y keep
 * lastIndex as JavaScript does.
 *
 * The class is made by a self-contained function (no imports, no outer names), so the scan worker
 * can evaluate its source text with re2js required there (scan-worker.ts). re2js is loaded when
 * the first pattern needs it (`re2js()`): 10-30 ms that start-up does not pay.
 */
export function makeLinearRegExp(re2js: () => typeof RE2JS) {
  const LOOKAROUND = 'lookahead and lookbehind ((?=...), (?!...), (?<=...), (?<!...))';
  const BACKREFERENCE = 'backreferences (\\1, \\k<name>)';

  class UnsupportedPatternError extends SyntaxError {}

  /** The most paths JavaScript's backtracking may try from one position for a pattern it is given. */
  const MAX_PATHS = 256;

  /**
   * One pass over the pattern (escapes and classes skipped). `unsupported`: the lookaround or
   * backreference RE2 cannot run in linear time, named. `bounded`: JavaScript's own matcher is
   * bounded on any text: no unbounded repetition (*, +,
   * {n,}), no repeated group, and few choice points (alternatives, ?, {n,m} of one atom) so that
   * the paths tried from one position are at most MAX_PATHS. Then a match costs at most the text's
   * length times the pattern's times MAX_PATHS, and V8's compiled matcher is 10-20 times faster
   * than RE2 in JavaScript on short texts (literal searches, alternatives of words, \d{3}).
   * Anything else (bot.*crawl, (a+)+$) is matched by RE2.
   */
  function scan(source: string): { bounded: boolean; unsupported: string | null } {
    let paths = 1;
    const alternatives: number[] = [1];
    let prevIsGroup = false;
    let bounded = true;
    for (let i = 0; i < source.length; i++) {
      const c = source[i]!;
      if (c === '\\') {
        const next = source[i + 1] ?? '';
        if ((next >= '1' && next <= '9') || (next === 'k' && source[i + 2] === '<')) return { bounded: false, unsupported: BACKREFERENCE };
        i++;
        prevIsGroup = false;
        continue;
      }
      if (
        c === '(' &&
        source[i + 1] === '?' &&
        (source[i + 2] === '=' || source[i + 2] === '!' || (source[i + 2] === '<' && (source[i + 3] === '=' || source[i + 3] === '!')))
      ) {
        return { bounded: false, unsupported: LOOKAROUND };
      }
      if (c === '[') {
        for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
        prevIsGroup = false;
        continue;
      }
      if (!bounded) continue;
      if (c === '*' || c === '+') {
        bounded = false;
        continue;
      }
      if (c === '{') {
        const q = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
        if (q) {
          if (prevIsGroup || q[3] === '') bounded = false;
          paths *= q[3] === undefined ? 1 : Number(q[3]) - Number(q[1]) + 1;
          i += q[0].length - 1;
          prevIsGroup = false;
          continue;
        }
      }
      if (c === '?') paths *= 2;
      if (c === '(') alternatives.push(1);
      if (c === '|') alternatives[alternatives.length - 1]!++;
      if (c === ')' && alternatives.length > 1) paths *= alternatives.pop()!;
      prevIsGroup = c === ')';
      if (paths > MAX_PATHS) bounded = false;
    }
    return { bounded: bounded && paths * alternatives[0]! <= MAX_PATHS, unsupported: null };
  }

  class LinearRegExp extends RegExp {
    // declared, not class fields: no helper in the compiled text the scan worker evaluates
    /** RE2's compiled pattern; null when JavaScript's matcher is bounded for it (it is not needed). */
    declare private readonly re2: RE2JS | null;
    /** JavaScript's own matcher is bounded for this pattern (scan). */
    declare readonly nativeIsBounded: boolean;

    // split, matchAll and replace's species make copies as new LinearRegExp(this, flags)
    constructor(pattern: string | RegExp, flags = '') {
      const source = typeof pattern === 'string' ? pattern : pattern.source;
      // JavaScript's own parse first: the pattern means what JavaScript says it means
      super(source, flags);
      const found = scan(source);
      if (found.unsupported)
        throw new UnsupportedPatternError(`${found.unsupported} are not supported: patterns run in linear time (RE2), which rules them out`);
      this.nativeIsBounded = found.bounded;
      this.re2 = null;
      if (found.bounded) return;
      const engine = re2js();
      let re2Flags = 0;
      if (flags.includes('i')) re2Flags |= engine.CASE_INSENSITIVE;
      if (flags.includes('m')) re2Flags |= engine.MULTILINE;
      if (flags.includes('s')) re2Flags |= engine.DOTALL;
      try {
        this.re2 = engine.compile(source, re2Flags);
      } catch (error) {
        throw new UnsupportedPatternError(`not supported by the linear-time engine (RE2): ${(error as Error).message}`);
      }
    }

    override test(text: string): boolean {
      if (this.re2 === null) return super.test(text);
      if (this.global || this.sticky) return this.exec(text) !== null;
      return this.re2.test(String(text));
    }

    override exec(input: string): RegExpExecArray | null {
      const re2 = this.re2;
      if (re2 === null) return super.exec(input);
      const text = String(input);
      const positional = this.global || this.sticky;
      const from = positional ? this.lastIndex : 0;
      if (from > text.length) {
        this.lastIndex = 0;
        return null;
      }
      const m = re2.matcher(text);
      if (!m.find(from) || (this.sticky && m.start() !== from)) {
        if (positional) this.lastIndex = 0;
        return null;
      }
      const start = m.start();
      const end = m.end();
      if (positional) this.lastIndex = end;
      const count = m.groupCount();
      const result: string[] = [text.slice(start, end)];
      for (let g = 1; g <= count; g++) result.push(m.group(g) ?? (undefined as unknown as string));
      const named = re2.namedGroups();
      let groups: Record<string, string> | undefined;
      if (named && Object.keys(named).length) {
        groups = Object.create(null) as Record<string, string>;
        for (const [name, g] of Object.entries(named)) groups[name] = result[g] as string;
      }
      return Object.assign(result, { index: start, input: text, groups }) as RegExpExecArray;
    }
  }

  return { LinearRegExp, UnsupportedPatternError };
}

let loaded: typeof RE2JS | null = null;
/** re2js's CommonJS build, required on first use (a runtime require: the bundle does not hold it). */
function re2jsOnFirstUse(): typeof RE2JS {
  return (loaded ??= (createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS);
}

export const { LinearRegExp, UnsupportedPatternError } = makeLinearRegExp(re2jsOnFirstUse);
export type LinearRegExp = InstanceType<typeof LinearRegExp>;
