import type { LogFieldDef } from '../log-fields/fields';

/** What the page codec needs of each field (the field table's rows, passed to the worker as data). */
export type CodecField = Pick<LogFieldDef, 'name' | 'type' | 'required' | 'storage'>;

/*
 * Reading a v2 record in the platform's own layout straight from the page's bytes: where each
 * value starts and ends, a hash of each string value's bytes, and a byte-keyed dictionary table,
 * so the page encoder makes no string for a value it has seen before.
 *
 * Self-contained on purpose (it refers to nothing outside its body): the worker thread runs this
 * function's source text, as it does the encoder's.
 */

export interface ByteRecordReader {
  /**
   * Reads the record at `p` if it is exactly in the platform's layout: compact, every field of the
   * table in its order, strings of printable ASCII without escapes, integers of up to 15 digits
   * without a sign or leading zero. Returns the position after its `}`, or -1 (nothing is read:
   * the caller takes its general path for that record). Fills `starts`, `ends` and `hashes`.
   */
  scan(bytes: Uint8Array, p: number): number;
  /** Per field (FIELDS order): where the value starts (inside the quotes for a string), -1 when null. */
  readonly starts: Int32Array;
  /** Per field: where the value ends (before the closing quote for a string). */
  readonly ends: Int32Array;
  /** Per string field: a hash of the value's bytes (not set for a URL found `built`). */
  readonly hashes: Int32Array;
  /** 1 at the URL's index when the URL is exactly `${scheme}://${host}${path}` (its bytes then not hashed). */
  readonly built: Uint8Array;
  /** Per dictionary field: the id its value has (found by a guess, see scan), -1 when it must be looked up. */
  readonly found: Int32Array;
  /** The id a dictionary (a string field's slot) gave these bytes, -1 when not known here. */
  lookup(dict: number, bytes: Uint8Array, start: number, end: number, hash: number): number;
  /** Remembers the id a dictionary gave these bytes. */
  remember(dict: number, bytes: Uint8Array, start: number, end: number, hash: number, id: number): void;
  /** The id the value of field f (read last, looked up or remembered) has: the next such value is guessed. */
  learn(field: number, id: number): void;
}

/** `fields`: the field table's rows (CODEC_FIELDS), in the order of a record. */
export function createByteRecordReader(fields: readonly CodecField[]): ByteRecordReader {
  const FIELDS = fields.map((f) => f.name);
  const NUMERIC = fields.map((f) => f.type === 'number');
  const STR_COUNT = NUMERIC.filter((numeric) => !numeric).length;
  // the bytes in front of each value: `{"timestamp":`, `,"pullZoneId":`, ...
  const PREFIX = FIELDS.map((f, i) => Uint8Array.from(`${i === 0 ? '{' : ','}"${f}":`, (ch) => ch.charCodeAt(0)));
  const FIELD_COUNT = FIELDS.length;
  const starts = new Int32Array(FIELD_COUNT);
  const ends = new Int32Array(FIELD_COUNT);
  const hashes = new Int32Array(FIELD_COUNT);

  const SCHEME = FIELDS.indexOf('scheme');
  const HOST = FIELDS.indexOf('host');
  const PATH = FIELDS.indexOf('path');
  const URL = fields.findIndex((f) => f.storage === 'derived');
  /** 1 at URL when the URL read last is exactly `${scheme}://${host}${path}` (all three not null). */
  const built = new Uint8Array(FIELD_COUNT);

  // Guessing a dictionary value before reading it. Per dictionary, a table from a few words at
  // the value's start (for the long values also further on; bytes after a short value's end are
  // in the key too, which only makes more keys) to the id seen last with those words. A guess is
  // taken when the id's bytes are at the value's start with a quote right after them: an id's
  // bytes are bytes read before (no quote, backslash, control or non-ASCII byte), so that quote
  // ends the value. The value is then neither scanned nor hashed.
  /** Per field: its dictionary (the index among the string fields, as the encoder numbers them), -1 for none. */
  const DICT_OF = fields.map((f, i) => (!NUMERIC[i] && f.storage === 'dictionary' ? FIELDS.slice(0, i).filter((_, j) => !NUMERIC[j]).length : -1));
  /** Per dictionary: where the words of the key are, from the value's start (long values: further on). */
  const KEY_AT = Array.from({ length: STR_COUNT }, (_, k) => {
    const f = FIELDS[DICT_OF.indexOf(k)];
    return Int32Array.from(
      f === 'userAgent' || f === 'referer' ? [0, 16, 32, 48, 64, 80] : f === 'path' ? [0, 4, 8, 12, 16, 20, 24] : f === 'asnOrganization' ? [0, 4, 8] : [0, 4],
    );
  });
  // Per dictionary, a table of 2^bits entries (more for the fields with more values), each of
  // four numbers: id + 1 of the value seen last with that key (0: none), its length and where
  // its bytes are in the arena (next to the id: one cache line to read, not three).
  const GUESS_BITS = Array.from({ length: STR_COUNT }, (_, k) => {
    const f = FIELDS[DICT_OF.indexOf(k)];
    return f === 'path' ? 12 : f === 'userAgent' || f === 'referer' ? 10 : 8;
  });
  const GUESS_SHIFT = Int32Array.from(GUESS_BITS, (bits) => 32 - bits);
  /** Per dictionary: its first entry. */
  const GUESS_BASE = Int32Array.from(GUESS_BITS, (_, k) => GUESS_BITS.slice(0, k).reduce((sum, bits) => sum + (1 << bits), 0));
  const guesses = new Int32Array(GUESS_BITS.reduce((sum, bits) => sum + (1 << bits), 0) * 4);
  /** Per dictionary field: the id a guess found (-1: none; read the value and look it up). */
  const found = new Int32Array(FIELD_COUNT).fill(-1);
  /** Per dictionary field: where the guess table's entry for the value read last is, -1 for none. */
  const slots = new Int32Array(FIELD_COUNT).fill(-1);
  /** The guess table's entry (index of its first number) for the value at p of dictionary k. */
  function entryOf(v: DataView, k: number, p: number): number {
    const at = KEY_AT[k]!;
    let h = -1640531527;
    for (let j = 0; j < at.length; j++) h = Math.imul(h ^ v.getInt32(p + at[j]!, true), -2048144789);
    return (GUESS_BASE[k]! + ((h ^ (h >>> 15)) >>> GUESS_SHIFT[k]!)) << 2;
  }
  /** Whether the n bytes at p are the arena's at `at`. */
  function inArena(v: DataView, b: Uint8Array, p: number, n: number, at: number): boolean {
    const a = arenaView;
    if (n < 4) {
      for (let j = 0; j < n; j++) if (b[p + j] !== arena[at + j]) return false;
      return true;
    }
    // whole words, then the last four bytes as one word (overlapping the last whole one)
    for (let j = 0; j + 4 <= n; j += 4) if (v.getInt32(p + j, true) !== a.getInt32(at + j, true)) return false;
    return v.getInt32(p + n - 4, true) === a.getInt32(at + n - 4, true);
  }

  // The page being read and a DataView on it: four bytes are compared (and hashed) at a time.
  let page: Uint8Array = new Uint8Array(0);
  let view: DataView = new DataView(page.buffer);
  function use(b: Uint8Array): void {
    if (b === page) return;
    page = b;
    view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  // All prefixes (each at least 4 bytes long) as (offset, little-endian 32-bit word) pairs: the
  // whole words, then the last four bytes when the length is not a multiple of four.
  const PREFIX_PAIRS: number[] = [];
  /** Per field: its first pair in PREFIX_PAIRS, and (at f + 1) the end of its pairs. */
  const PREFIX_FROM = new Int32Array(FIELD_COUNT + 1);
  for (let f = 0; f < FIELD_COUNT; f++) {
    const pre = PREFIX[f]!;
    const pv = new DataView(pre.buffer);
    PREFIX_FROM[f] = PREFIX_PAIRS.length;
    for (let j = 0; j + 4 <= pre.length; j += 4) PREFIX_PAIRS.push(j, pv.getInt32(j, true));
    if (pre.length % 4 !== 0) PREFIX_PAIRS.push(pre.length - 4, pv.getInt32(pre.length - 4, true));
  }
  PREFIX_FROM[FIELD_COUNT] = PREFIX_PAIRS.length;
  const PAIRS = Int32Array.from(PREFIX_PAIRS);
  const PREFIX_LEN = Int32Array.from(PREFIX, (pre) => pre.length);

  /** Whether the n bytes at a equal those at c (both in the page). */
  function equal(v: DataView, b: Uint8Array, a: number, c: number, n: number): boolean {
    if (n < 4) {
      for (let j = 0; j < n; j++) if (b[a + j] !== b[c + j]) return false;
      return true;
    }
    for (let j = 0; j + 4 <= n; j += 4) if (v.getInt32(a + j, true) !== v.getInt32(c + j, true)) return false;
    return v.getInt32(a + n - 4, true) === v.getInt32(c + n - 4, true);
  }

  /**
   * The URL at p (after its quote) when it is `${scheme}://${host}${path}"` (those three read
   * already): the position of its closing quote, else -1. Its bytes are then those values' bytes,
   * checked already.
   */
  function builtUrl(v: DataView, b: Uint8Array, p: number, n: number): number {
    const ss = starts[SCHEME]!;
    const hs = starts[HOST]!;
    const ps = starts[PATH]!;
    if (ss < 0 || hs < 0 || ps < 0) return -1;
    const sl = ends[SCHEME]! - ss;
    const hl = ends[HOST]! - hs;
    const pl = ends[PATH]! - ps;
    const e = p + sl + 3 + hl + pl;
    if (e >= n || b[e] !== 34) return -1;
    if (!equal(v, b, p, ss, sl) || b[p + sl] !== 58 || b[p + sl + 1] !== 47 || b[p + sl + 2] !== 47) return -1;
    return equal(v, b, p + sl + 3, hs, hl) && equal(v, b, p + sl + 3 + hl, ps, pl) ? e : -1;
  }

  function scan(b: Uint8Array, p: number): number {
    use(b);
    const v = view;
    const n = b.length;
    built[URL] = 0;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const pl = PREFIX_LEN[f]!;
      if (p + pl + 4 > n) return -1;
      for (let i = PREFIX_FROM[f]!, to = PREFIX_FROM[f + 1]!; i < to; i += 2) if (v.getInt32(p + PAIRS[i]!, true) !== PAIRS[i + 1]) return -1;
      p += pl;
      let c = b[p]!;
      if (c === 110) {
        // null
        if (b[p + 1] !== 117 || b[p + 2] !== 108 || b[p + 3] !== 108) return -1;
        found[f] = -1;
        starts[f] = -1;
        ends[f] = -1;
        p += 4;
      } else if (NUMERIC[f]) {
        // 0, or 1-15 digits without a leading zero; what follows must be `,` or `}` (checked next)
        const s = p;
        if (c === 48) p++;
        else {
          while (p < n && (c = b[p]!) >= 48 && c <= 57) p++;
          if (p === s || p - s > 15) return -1;
        }
        starts[f] = s;
        ends[f] = p;
      } else {
        if (c !== 34) return -1;
        const s = ++p;
        const k = DICT_OF[f]!;
        if (k >= 0) {
          found[f] = -1;
          slots[f] = -1;
          const at = KEY_AT[k]!;
          if (p + at[at.length - 1]! + 4 <= n) {
            const g = entryOf(v, k, p);
            slots[f] = g;
            const id1 = guesses[g]!;
            if (id1 !== 0) {
              const e = p + guesses[g + 1]!;
              if (e < n && b[e] === 34 && inArena(v, b, p, e - p, guesses[g + 2]!)) {
                found[f] = id1 - 1;
                starts[f] = s;
                ends[f] = e;
                p = e + 1;
                continue;
              }
            }
          }
        } else if (f === URL) {
          const e = builtUrl(v, b, p, n);
          if (e >= 0) {
            built[URL] = 1;
            starts[f] = s;
            ends[f] = e;
            p = e + 1;
            continue;
          }
        }
        let h = -2128831035;
        // Four bytes at a time while none of them is a quote, a backslash, a control character or
        // a byte of a multi-byte character (then byte by byte: such a byte ends the value or sends
        // the record to the general path). The hash takes whole words, then bytes: the same bytes
        // from a value's start always hash the same.
        for (;;) {
          if (p + 4 <= n) {
            const w = v.getInt32(p, true);
            const q = w ^ 0x22222222;
            const bs = w ^ 0x5c5c5c5c;
            if ((((q - 0x01010101) & ~q) | ((bs - 0x01010101) & ~bs) | ((w - 0x20202020) & ~w) | w) & 0x80808080) {
              // one of the four needs a look: the next byte alone
            } else {
              h = Math.imul(h ^ w, 16777619);
              p += 4;
              continue;
            }
          }
          if (p >= n) return -1;
          c = b[p]!;
          if (c === 34) break;
          // a control character, an escape or a byte of a multi-byte character: the general path
          if (c < 32 || c === 92 || c > 127) return -1;
          h = Math.imul(h ^ c, 16777619);
          p++;
        }
        starts[f] = s;
        ends[f] = p;
        hashes[f] = h;
        p++;
      }
    }
    return p < n && b[p] === 125 ? p + 1 : -1;
  }

  // One open-addressing table per dictionary: hash and id + 1 (0 = empty) per slot; the bytes of
  // each id's value in one arena, to compare.
  interface Table {
    hashes: Int32Array;
    ids: Int32Array;
    count: number;
    /** Per id: where its bytes start in the arena, and their length. */
    at: Int32Array;
    len: Int32Array;
  }
  const tables: Table[] = [];
  for (let k = 0; k < STR_COUNT; k++)
    tables.push({ hashes: new Int32Array(64), ids: new Int32Array(64), count: 0, at: new Int32Array(16), len: new Int32Array(16) });
  let arena = new Uint8Array(1 << 16);
  let arenaUsed = 0;

  let arenaView: DataView = new DataView(arena.buffer);

  function same(b: Uint8Array, s: number, e: number, at: number): boolean {
    use(b);
    const v = view;
    let i = s;
    for (; i + 4 <= e; i += 4) if (v.getInt32(i, true) !== arenaView.getInt32(at + i - s, true)) return false;
    for (; i < e; i++) if (b[i] !== arena[at + i - s]) return false;
    return true;
  }

  function lookup(k: number, b: Uint8Array, s: number, e: number, h: number): number {
    const t = tables[k]!;
    const mask = t.ids.length - 1;
    const len = e - s;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const id1 = t.ids[i]!;
      if (id1 === 0) return -1;
      if (t.hashes[i] === h && t.len[id1 - 1] === len && same(b, s, e, t.at[id1 - 1]!)) return id1 - 1;
    }
  }

  function place(t: Table, h: number, id1: number): void {
    const mask = t.ids.length - 1;
    let i = h & mask;
    while (t.ids[i] !== 0) i = (i + 1) & mask;
    t.ids[i] = id1;
    t.hashes[i] = h;
  }

  function remember(k: number, b: Uint8Array, s: number, e: number, h: number, id: number): void {
    const t = tables[k]!;
    if (lookup(k, b, s, e, h) >= 0) return;
    const len = e - s;
    if (arenaUsed + len > arena.length) {
      const a2 = new Uint8Array(Math.max(arena.length * 2, arenaUsed + len));
      a2.set(arena.subarray(0, arenaUsed));
      arena = a2;
      arenaView = new DataView(arena.buffer);
    }
    arena.set(b.subarray(s, e), arenaUsed);
    if (id >= t.at.length) {
      const size = Math.max(t.at.length * 2, id + 1);
      const at2 = new Int32Array(size);
      at2.set(t.at);
      t.at = at2;
      const len2 = new Int32Array(size);
      len2.set(t.len);
      t.len = len2;
    }
    t.at[id] = arenaUsed;
    t.len[id] = len;
    arenaUsed += len;
    if ((t.count + 1) * 2 > t.ids.length) {
      const oldIds = t.ids;
      const oldHashes = t.hashes;
      t.ids = new Int32Array(oldIds.length * 2);
      t.hashes = new Int32Array(oldIds.length * 2);
      for (let i = 0; i < oldIds.length; i++) if (oldIds[i] !== 0) place(t, oldHashes[i]!, oldIds[i]!);
    }
    place(t, h, id + 1);
    t.count++;
  }

  function learn(f: number, id: number): void {
    const g = slots[f]!;
    if (g < 0) return;
    const t = tables[DICT_OF[f]!]!;
    guesses[g] = id + 1;
    guesses[g + 1] = t.len[id]!;
    guesses[g + 2] = t.at[id]!;
  }

  return { scan, starts, ends, hashes, built, found, lookup, remember, learn };
}
