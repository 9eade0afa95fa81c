/**
 * A copy of `s` that holds no other string alive. A string cut from a bigger one (a field of a
 * page decoded in one piece) is a slice that keeps the whole piece in memory; a value kept for long
 * (a dictionary entry, a statistics key) must be its own. Concatenation then slicing makes V8
 * flatten the text into a new string: any content, surrogates included, comes back equal.
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}
