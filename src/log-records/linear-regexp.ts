import { RE2JS } from 're2js';

/**
 * Patterns a person types (the logs view's `/`, alert rules' `field~pattern`) run over text that
 * anyone on the internet chooses (user agents, paths, referers). JavaScript's RegExp backtracks:
 * `bot.*crawl` over a user agent of `bot ` 2,000 times, or `(a+)+$`, takes seconds to forever.
 * LinearRegExp is a RegExp whose matching is done by RE2 (re2js, pure JavaScript): time linear in
 * the text whatever the pattern; a pattern JavaScript's matcher runs in bounded time on any text
 * (no repetition: literals, alternatives, classes; backtrackBounded) keeps V8's faster matcher.
 * Every RegExp method (test, exec, match, replace, split, matchAll) goes through its exec, so code
 * that takes a RegExp keeps working.
 *
 * The pattern must be valid for both: JavaScript syntax, with what RE2 cannot do in linear time
 * refused (lookahead, lookbehind, backreferences), with a message saying so
 * (UnsupportedPatternError). The flags i, m and s mean what they mean in JavaScript; g, y keep
 * lastIndex as JavaScript does.
 *
 * The class is made by a self-contained function (no imports, no outer names), so the scan worker
 * can evaluate its source text with re2js required there (scan-worker.ts).
 */
export function makeLinearRegExp(re2js: typeof RE2JS) {
  const LOOKAROUND = /\(\?<?[=!]/;
  const BACKREFERENCE = /\\[1-9]|\\k<\w+>/;

  /** Which JavaScript feature RE2 does not have, in words, for a pattern RE2 refused. */
  function unsupported(source: string): string | null {
    // outside character classes and escapes: a rough scan is enough to name the feature
    if (LOOKAROUND.test(source)) return 'lookahead and lookbehind ((?=...), (?!...), (?<=...), (?<!...))';
    if (BACKREFERENCE.test(source)) return 'backreferences (\\1, \\k<name>)';
    return null;
  }

  class UnsupportedPatternError extends SyntaxError {}

  /** The most paths JavaScript's backtracking may try from one position for a pattern it is given. */
  const MAX_PATHS = 256;

  /**
   * Whether JavaScript's own matcher is bounded on any text: no unbounded repetition (*, +,
   * {n,}), no repeated group, and few choice points (alternatives, ?, {n,m} of one atom) so that
   * the paths tried from one position are at most MAX_PATHS. Then a match costs at most the text's
   * length times the pattern's times MAX_PATHS, and V8's compiled matcher is 10-20 times faster
   * than RE2 in JavaScript on short texts (literal searches, alternatives of words, \d{3}).
   * Anything else (bot.*crawl, (a+)+$) is matched by RE2.
   */
  function backtrackBounded(source: string): boolean {
    let paths = 1;
    const alternatives: number[] = [1];
    let prevIsGroup = false;
    for (let i = 0; i < source.length; i++) {
      const c = source[i]!;
      if (c === '\\') {
        i++;
        prevIsGroup = false;
        continue;
      }
      if (c === '[') {
        for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
        prevIsGroup = false;
        continue;
      }
      if (c === '*' || c === '+') return false;
      if (c === '{') {
        const q = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
        if (q) {
          if (prevIsGroup || q[3] === '') return false;
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
      if (paths > MAX_PATHS) return false;
    }
    return paths * alternatives[0]! <= MAX_PATHS;
  }

  class LinearRegExp extends RegExp {
    // declared, not class fields: no helper in the compiled text the scan worker evaluates
    declare private readonly re2: RE2JS;
    /** JavaScript's own matcher is bounded for this pattern (backtrackBounded). */
    declare readonly nativeIsBounded: boolean;

    // split, matchAll and replace's species make copies as new LinearRegExp(this, flags)
    constructor(pattern: string | RegExp, flags = '') {
      const source = typeof pattern === 'string' ? pattern : pattern.source;
      // JavaScript's own parse first: the pattern means what JavaScript says it means
      super(source, flags);
      let re2Flags = 0;
      if (flags.includes('i')) re2Flags |= re2js.CASE_INSENSITIVE;
      if (flags.includes('m')) re2Flags |= re2js.MULTILINE;
      if (flags.includes('s')) re2Flags |= re2js.DOTALL;
      try {
        this.re2 = re2js.compile(source, re2Flags);
        this.nativeIsBounded = backtrackBounded(source);
      } catch (error) {
        const feature = unsupported(source);
        throw new UnsupportedPatternError(
          feature
            ? `${feature} are not supported: patterns run in linear time (RE2), which rules them out`
            : `not supported by the linear-time engine (RE2): ${(error as Error).message}`,
        );
      }
    }

    override test(text: string): boolean {
      if (this.nativeIsBounded) return super.test(text);
      if (this.global || this.sticky) return this.exec(text) !== null;
      return this.re2.test(String(text));
    }

    override exec(input: string): RegExpExecArray | null {
      if (this.nativeIsBounded) return super.exec(input);
      const text = String(input);
      const positional = this.global || this.sticky;
      const from = positional ? this.lastIndex : 0;
      if (from > text.length) {
        this.lastIndex = 0;
        return null;
      }
      const m = this.re2.matcher(text);
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
      const named = this.re2.namedGroups();
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

export const { LinearRegExp, UnsupportedPatternError } = makeLinearRegExp(RE2JS);
export type LinearRegExp = InstanceType<typeof LinearRegExp>;
