/**
 * The JSON the server sent, kept beside what the zod schemas made of it: the raw view (`d`)
 * shows a row as it came over the wire, not as parsed (defaults filled, unknown shapes
 * normalised, fields renamed). Parsed objects are the keys of a WeakMap, so the raw copy lives
 * exactly as long as the parsed record a store holds.
 */
const rawOf = new WeakMap<object, unknown>();

/** Objects nested deeper than this (a page > items > origin groups > origins) are not paired. */
const MAX_DEPTH = 5;

function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

/**
 * Pairs every parsed object with the raw object at the same place (same key, same array index),
 * down to MAX_DEPTH levels. Arrays of plain values are skipped whole.
 */
export function keepRawJson(parsed: unknown, raw: unknown, depth = 0): void {
  if (!isObject(parsed) || !isObject(raw) || depth > MAX_DEPTH) return;
  if (Array.isArray(parsed)) {
    if (!Array.isArray(raw) || parsed.length === 0 || !isObject(parsed[0])) return;
    const n = Math.min(parsed.length, raw.length);
    for (let i = 0; i < n; i++) keepRawJson(parsed[i], raw[i], depth + 1);
    return;
  }
  if (Array.isArray(raw)) return;
  rawOf.set(parsed, raw);
  for (const [key, value] of Object.entries(parsed)) {
    if (isObject(value)) keepRawJson(value, (raw as Record<string, unknown>)[key], depth + 1);
  }
}

/** The raw JSON object a parsed record came from, or undefined when it was not kept. */
export function rawJsonOf(parsed: unknown): unknown {
  return isObject(parsed) ? rawOf.get(parsed) : undefined;
}
