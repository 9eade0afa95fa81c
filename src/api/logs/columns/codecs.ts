/**
 * Compact forms of record fields that round-trip exactly: a request id of 32 lower-case hex
 * digits as 16 bytes, an IPv4 address as a 32-bit number, an IPv6 address as 16 bytes (only when
 * the text is the canonical RFC 5952 form, so writing it back gives the same text).
 */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** Writes a 32-digit lower-case hex id as 16 bytes at `at`; false when the text is not one. */
export function writeHexId(text: string, out: Uint8Array, at: number): boolean {
  if (text.length !== 32) return false;
  for (let i = 0; i < 16; i++) {
    const hi = hexDigit(text.charCodeAt(2 * i));
    const lo = hexDigit(text.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return false;
    out[at + i] = (hi << 4) | lo;
  }
  return true;
}

export function readHexId(bytes: Uint8Array, at: number): string {
  let s = '';
  for (let i = 0; i < 16; i++) s += HEX[bytes[at + i]!];
  return s;
}

/** "a.b.c.d" without leading zeros as an unsigned 32-bit number; -1 when the text is not one. */
export function parseIpv4(text: string): number {
  const n = text.length;
  if (n < 7 || n > 15) return -1;
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 46;
    if (c === 46) {
      if (digits === 0 || part > 255 || parts === 4) return -1;
      value = value * 256 + part;
      parts++;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return -1;
      part = part * 10 + c - 48;
      if (++digits > 3) return -1;
    } else return -1;
  }
  return parts === 4 ? value : -1;
}

export function formatIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** Writes an IPv6 address in canonical form as 16 bytes at `at`; false otherwise. */
export function writeIpv6(text: string, out: Uint8Array, at: number): boolean {
  if (text.length < 2 || text.length > 39 || text.indexOf(':') < 0) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const head = halves[0] === '' ? [] : halves[0]!.split(':');
  const tail = halves.length === 2 ? (halves[1] === '' ? [] : halves[1]!.split(':')) : [];
  const groups = halves.length === 2 ? [...head, ...new Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  if (groups.length !== 8 || (halves.length === 2 && head.length + tail.length > 6)) return false;
  for (let g = 0; g < 8; g++) {
    const part = groups[g]!;
    if (!/^[0-9a-f]{1,4}$/.test(part)) return false;
    const v = parseInt(part, 16);
    out[at + 2 * g] = v >> 8;
    out[at + 2 * g + 1] = v & 255;
  }
  return formatIpv6(out, at) === text;
}

/** RFC 5952: lower case, no leading zeros, the longest run of two or more zero groups as "::" (the first when tied). */
export function formatIpv6(bytes: Uint8Array, at: number): string {
  const groups: number[] = [];
  for (let g = 0; g < 8; g++) groups.push((bytes[at + 2 * g]! << 8) | bytes[at + 2 * g + 1]!);
  let bestAt = -1;
  let bestLen = 1;
  for (let g = 0; g < 8; ) {
    if (groups[g] !== 0) {
      g++;
      continue;
    }
    let e = g;
    while (e < 8 && groups[e] === 0) e++;
    if (e - g > bestLen) {
      bestAt = g;
      bestLen = e - g;
    }
    g = e;
  }
  const hex = (from: number, to: number) => groups.slice(from, to).map((v) => v.toString(16)).join(':');
  if (bestAt < 0) return hex(0, 8);
  return `${hex(0, bestAt)}::${hex(bestAt + bestLen, 8)}`;
}

/** The timestamp text when it is exactly what toISOString writes for `time`. */
export function isIsoOf(text: string, time: number): boolean {
  return text.length === 24 && new Date(time).toISOString() === text;
}
