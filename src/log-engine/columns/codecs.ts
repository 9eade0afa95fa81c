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
  if (bytes instanceof Buffer) return bytes.toString('hex', at, at + 16);
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

/** Writes an IPv6 address in canonical form as 16 bytes at `at`; false otherwise (read by hand: it is on the insert path). */
export function writeIpv6(text: string, out: Uint8Array, at: number): boolean {
  const n = text.length;
  if (n < 2 || n > 39) return false;
  const groups = IPV6_GROUPS;
  let count = 0;
  let gap = -1;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 58;
    if (c === 58) {
      if (i < n && i + 1 < n && text.charCodeAt(i + 1) === 58) {
        // "::"
        if (gap >= 0) return false;
        if (digits > 0) groups[count++] = value;
        else if (i !== 0) return false;
        gap = count;
        i++;
        value = 0;
        digits = 0;
        if (i + 1 === n) break;
        continue;
      }
      if (digits === 0) return false;
      if (count === 8) return false;
      groups[count++] = value;
      value = 0;
      digits = 0;
    } else {
      const d = hexDigit(c);
      if (d < 0 || ++digits > 4) return false;
      value = value * 16 + d;
    }
  }
  if (gap < 0 ? count !== 8 : count > 6) return false;
  const fill = 8 - count;
  for (let g = 0, src = 0; g < 8; g++) {
    const v = gap >= 0 && g >= gap && g < gap + fill ? 0 : groups[src++]!;
    out[at + 2 * g] = v >> 8;
    out[at + 2 * g + 1] = v & 255;
  }
  return formatIpv6(out, at) === text;
}

const IPV6_GROUPS = new Array<number>(8).fill(0);

/** RFC 5952: lower case, no leading zeros, the longest run of two or more zero groups as "::" (the first when tied). */
export function formatIpv6(bytes: Uint8Array, at: number): string {
  let bestAt = -1;
  let bestLen = 1;
  let runAt = -1;
  for (let g = 0; g <= 8; g++) {
    const zero = g < 8 && bytes[at + 2 * g] === 0 && bytes[at + 2 * g + 1] === 0;
    if (zero) {
      if (runAt < 0) runAt = g;
    } else if (runAt >= 0) {
      if (g - runAt > bestLen) {
        bestAt = runAt;
        bestLen = g - runAt;
      }
      runAt = -1;
    }
  }
  let s = '';
  let colon = false;
  for (let g = 0; g < 8; g++) {
    if (g === bestAt) {
      s += '::';
      g += bestLen - 1;
      colon = false;
      continue;
    }
    if (colon) s += ':';
    s += ((bytes[at + 2 * g]! << 8) | bytes[at + 2 * g + 1]!).toString(16);
    colon = true;
  }
  return s;
}

const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const DAY_MS = 86_400_000;
let dayStart = Number.NaN;
let dayPrefix = '';

/** "2026-08-08T", the date part of toISOString, for the day of `time` (the last day asked is kept). */
function datePrefix(time: number): string {
  const start = time - (((time % DAY_MS) + DAY_MS) % DAY_MS);
  if (start !== dayStart) {
    dayStart = start;
    dayPrefix = new Date(start).toISOString().slice(0, 11);
  }
  return dayPrefix;
}

/** What toISOString writes for `time` (years 0-9999), quicker: the date part is reused within a day. */
export function isoOf(time: number): string {
  if (!(time >= 0 && time < 253402300800000) || !Number.isInteger(time)) return new Date(time).toISOString();
  const prefix = datePrefix(time);
  let ms = time - dayStart;
  const h = Math.floor(ms / 3_600_000);
  ms -= h * 3_600_000;
  const m = Math.floor(ms / 60_000);
  ms -= m * 60_000;
  const sec = Math.floor(ms / 1000);
  return `${prefix}${TWO[h]}:${TWO[m]}:${TWO[sec]}.${THREE[ms - sec * 1000]}Z`;
}

/** The timestamp text when it is exactly what toISOString writes for `time`. */
export function isIsoOf(text: string, time: number): boolean {
  return text.length === 24 && isoOf(time) === text;
}
