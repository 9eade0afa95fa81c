/**
 * The whole line of a record, as the local pattern (`/`) sees it: the fields a person reads, in
 * the order the stream shows them (status, cache, host + path, country, edge, IP, user agent),
 * then the referer and the request id, one space between, absent fields left out. The time is
 * not part of it. A record matches when one of its fields matches (so `^FR$` still finds a
 * country) or when its line does (so `api/cart.*(DE|FR)` finds a path and a country).
 *
 * Self-contained functions: the scan worker evaluates their source text.
 */

/** The line of a record from its field texts in line order (null or empty: absent). */
export function lineOf(parts: readonly (string | null | undefined)[]): string {
  let out = '';
  for (const p of parts) {
    if (p === null || p === undefined || p === '') continue;
    out = out === '' ? p : `${out} ${p}`;
  }
  return out;
}

/** Where each part starts in its line (lineOf's joining), -1 for an absent part. */
export function partStarts(parts: readonly (string | null | undefined)[]): number[] {
  const starts: number[] = [];
  let at = 0;
  let first = true;
  for (const p of parts) {
    if (p === null || p === undefined || p === '') {
      starts.push(-1);
      continue;
    }
    if (!first) at += 1;
    starts.push(at);
    at += p.length;
    first = false;
  }
  return starts;
}

/**
 * Whether a match in a record's line can be more than a match in one of its fields: the pattern
 * could match the space between two fields, or looks around itself. Conservative: any class,
 * `.`, `\s` and the like count as able to match a space. False: testing field by field is enough.
 */
export function mayCrossFields(source: string): boolean {
  // self-contained: the scan worker runs its source text
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      // an escaped literal (`\.`, `\/`, `\(`) matches only itself; a class escape may match a space
      if (/[sSWDxuUpPc0-9]/.test(source[i + 1] ?? '')) return true;
      i++;
    } else if (c === ' ' || c === '.' || c === '[') {
      return true;
    } else if (c === '(' && source[i + 1] === '?' && /^<?[=!]/.test(source.slice(i + 2, i + 4))) {
      return true;
    }
  }
  return false;
}

/** The one place a pattern is run on a line (a change of regular-expression engine is made here). */
export function matchesLine(re: RegExp, line: string): boolean {
  return re.test(line);
}
