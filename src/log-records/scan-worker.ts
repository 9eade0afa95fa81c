import type { MessagePort } from 'node:worker_threads';
import { ThreadLane } from '../log-engine/thread-lane';
import { createRequire } from 'node:module';
import { makeLinearRegExp, type LinearRegExp } from './linear-regexp';
import { RECORD_FLAGS, STATUS_ASIDE, TIME_ASIDE, type DictField, type SharedScanColumns } from '../log-engine/columns/record-columns';
import { lineOf, matchesLine, mayCrossFields } from './record-line';
import { LOG_FIELDS, urlPartField, type FieldStorage } from '../log-fields/fields';

type LineField = Extract<(typeof LOG_FIELDS)[number], { line: number }>;
type LineDictField = Extract<LineField, { storage: 'dictionary' }>;
const placeOf = (f: LineField) => f.line - 1;

/** The fields of a record's line, in its order (the field table's `line`). */
const LINE_FIELDS = LOG_FIELDS.filter((f): f is LineField => f.line !== null).sort((a, b) => a.line - b.line);

/**
 * The field of the line the store keeps as `storage`. Besides dictionaries the worker reads one
 * each (the status, the url, the IP, the request id): another line field kept otherwise needs
 * its code here, so it fails now rather than be left out of the line.
 */
function linePlace(storage: FieldStorage): number {
  const [field, ...more] = LINE_FIELDS.filter((f) => f.storage === storage);
  if (!field || more.length) throw new Error(`the scan worker reads one field of the line kept as ${storage}, the table has ${more.length + (field ? 1 : 0)}`);
  return placeOf(field);
}

/**
 * What the worker needs of the field table, as data (its source text cannot import): the
 * dictionary fields of the line, tried in its order, their places, the URL's host and path
 * (tried together as host + path), and the places of the line's other parts.
 */
export interface ScanLayout {
  dicts: readonly DictField[];
  dictPlaces: readonly number[];
  urlHost: DictField;
  urlPath: DictField;
  places: { status: number; url: number; ip: number; id: number; count: number };
}

const LINE_DICTS = LINE_FIELDS.filter((f): f is LineDictField => f.storage === 'dictionary');
const OWN_KINDS: readonly FieldStorage[] = ['number', 'derived', 'address', 'id'];
const other = LINE_FIELDS.find((f) => f.storage !== 'dictionary' && !OWN_KINDS.includes(f.storage));
if (other) throw new Error(`the scan worker cannot read ${other.name} (kept as ${other.storage}) for the line`);
const SCAN_LAYOUT: ScanLayout = {
  dicts: LINE_DICTS.map((f) => f.name),
  dictPlaces: LINE_DICTS.map(placeOf),
  urlHost: urlPartField('url host').name,
  urlPath: urlPartField('url path').name,
  places: { status: linePlace('number'), url: linePlace('derived'), ip: linePlace('address'), id: linePlace('id'), count: LINE_FIELDS.length },
};

/** The dictionary fields a pattern is tried on (host and path together, as host + path). */
export const SCAN_DICT_FIELDS: readonly DictField[] = [...SCAN_LAYOUT.dicts, SCAN_LAYOUT.urlHost, SCAN_LAYOUT.urlPath];
export type ScanDictField = DictField;

/** Dictionary values by id, as they were when the scan started. */
export type ScanDictionaries = Record<ScanDictField, (string | undefined)[]>;

/** A piece of a dictionary for the next scan (sent in pieces, so no one message holds the main thread long). */
export interface ScanDictPiece {
  type: 'dict';
  id: number;
  field: ScanDictField;
  from: number;
  values: (string | undefined)[];
}

/** A whole-buffer scan for a worker thread: the records of `order` (slots, oldest first) in stretches. */
export interface ScanRequest {
  type: 'scan';
  id: number;
  source: string;
  flags: string;
  cols: SharedScanColumns;
  /** Slots of the records held when the scan started, oldest first (shared memory). */
  order: Int32Array;
  /** Stretches of `order` in the order to scan them: [from, to) pairs. */
  stretches: Int32Array;
  /** Set to non-zero to stop the scan (checked between stretches and every few thousand records). */
  cancel: Int32Array;
  bits: typeof RECORD_FLAGS;
  statusAside: number;
  timeAside: number;
}

/** The matches of one stretch: positions in `order`, with the sequence number each record had when tested. */
export interface ScanStretchResult {
  type: 'stretch';
  id: number;
  stretch: number;
  hits: Int32Array;
  seqs: Uint32Array;
  /** Positions the worker could not decide (a field in a rare form): the main thread tests them. */
  unsure: Int32Array;
  busyMs: number;
}

/**
 * Whether a match of the pattern in a text depends only on the characters it spans (no ^, $,
 * \b, \B or lookaround): then a match inside one record's text is also a match at the same
 * place in the records' texts joined, and one regular-expression run over a stretch finds every
 * record to check (each candidate is then tested on its own text). Conservative: a ^ or $
 * anywhere (even in a class) says no.
 */
export function spanOnly(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1];
      if (n === 'b' || n === 'B') return false;
      i++;
    } else if (c === '^' || c === '$') return false;
    else if (c === '(' && source[i + 1] === '?' && (source[i + 2] === '=' || source[i + 2] === '!' || source[i + 2] === '<')) return false;
  }
  return true;
}

/**
 * Whether the pattern could match a text made only of `alphabet`'s characters. Decided only for
 * a pattern that is literals separated by | (escaped punctuation allowed): no match is possible
 * when every alternative has a character outside the alphabet (either case with the i flag).
 * Anything else may match.
 */
export function mayMatchWithin(source: string, ignoreCase: boolean, alphabet: string): boolean {
  const inside = (c: string) => alphabet.includes(c) || (ignoreCase && (alphabet.includes(c.toLowerCase()) || alphabet.includes(c.toUpperCase())));
  let fits = true;
  let empty = true;
  for (let i = 0; i <= source.length; i++) {
    const c = source[i];
    if (c === undefined || c === '|') {
      if (fits || empty) return true;
      fits = true;
      empty = true;
      continue;
    }
    let literal = c;
    if (c === '\\') {
      const n = source[++i];
      // an escaped letter or digit is a class or a special character: not a literal
      if (n === undefined || /[0-9A-Za-z]/.test(n)) return true;
      literal = n;
    } else if ('.*+?()[]{}^$'.includes(c)) return true;
    empty = false;
    if (!inside(literal)) fits = false;
  }
  // every alternative has a character the text cannot hold
  return false;
}

/**
 * The worker thread's program: the same test as columnTest (any field matches: status, cache,
 * host + path, country, edge, IP, user agent, referer, request id; or, for a pattern that may
 * cross fields, the record's whole line), on the shared columns. A dictionary value is tried once
 * per id. Self-contained but for spanOnly, mayMatchWithin and record-line.ts: its source text (and
 * theirs) is what the worker evaluates.
 */
function scanWorkerMain(port: MessagePort, layout: ScanLayout): void {
  const fields = [...layout.dicts, layout.urlHost, layout.urlPath];
  const nd = layout.dicts.length;
  let pieces: { id: number; dicts: ScanDictionaries } = { id: -1, dicts: {} as ScanDictionaries };

  /** Record texts of a stretch side by side, `stride` bytes each (the last one a newline). */
  function texts(capacity: number, stride: number): Buffer {
    const b = Buffer.allocUnsafe(capacity * stride);
    for (let k = stride - 1; k < b.length; k += stride) b[k] = 10;
    return b;
  }

  const HEXW = 33;
  const HEXC = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
  let hexText = texts(0, HEXW);
  const IPW = 16;
  let ipText = texts(0, IPW);

  function run(m: ScanRequest): void {
    // linear-time matching (RE2) here too: the texts are chosen by strangers (linear-regexp.ts)
    let re: RegExp;
    let all: RegExp;
    try {
      re = new WorkerLinearRegExp(m.source, m.flags);
      all = new WorkerLinearRegExp(m.source, m.flags.includes('g') ? m.flags : `${m.flags}g`);
    } catch {
      // the main thread compiled it: only a pattern it did not check gets here; nothing matches
      re = /(?!)/;
      all = /(?!)/g;
    }
    const joined = spanOnly(m.source);
    // the per-record texts the pattern could match at all (a literal like /wp-login|\.php/ none of them)
    const ignoreCase = m.flags.includes('i');
    const hexMay = mayMatchWithin(m.source, ignoreCase, '0123456789abcdef');
    const ipMay = mayMatchWithin(m.source, ignoreCase, '0123456789.');
    const textsMay = hexMay || ipMay;
    // a pattern that may match across fields is tried on the whole line of a record no field matched
    const crossing = mayCrossFields(m.source);
    const { seqs, flags, status, ip4, rid } = m.cols;
    const B = m.bits;
    // an IPv6 address is in the arena (not shared): the main thread tries it, unless the pattern cannot match one
    const v6May = crossing || mayMatchWithin(m.source, m.flags.includes('i'), '0123456789abcdef:.');
    const hard = B.RID_TEXT | B.IP_TEXT | (v6May ? B.IP_V6 : 0) | (crossing ? B.URL_TEXT : 0);
    const ids = m.cols.ids;
    const dicts = pieces.dicts;
    for (const f of fields) dicts[f] ??= [];
    // the line's dictionary fields, in its order: ids by slot, values by id
    const dictIds = layout.dicts.map((f) => ids[f]);
    const dictValues = layout.dicts.map((f) => dicts[f]);
    const hostIds = ids[layout.urlHost];
    const pathIds = ids[layout.urlPath];
    const hostValues = dicts[layout.urlHost];
    const pathValues = dicts[layout.urlPath];
    // per dictionary: 0 not tried yet, 1 matches, 2 does not, 3 unknown id (undecided)
    const memo = (values: (string | undefined)[]) => new Uint8Array(values.length + 1);
    const dictHits = dictValues.map(memo);
    const pathHit = memo(pathValues);
    const pathHost = new Int32Array(pathValues.length + 1);
    const statusHit = new Uint8Array(65536);
    const byValue = (hit: Uint8Array, values: (string | undefined)[], id: number): number => {
      if (id === 0) return 2;
      if (id >= values.length) return 3;
      let h = hit[id]!;
      if (h === 0) {
        const v = values[id];
        h = v === undefined ? 3 : re.test(v) ? 1 : 2;
        hit[id] = h;
      }
      return h;
    };
    const order = m.order;
    const st = m.stretches;
    const started = performance.now();
    for (let k = 0; k < st.length / 2; k++) {
      if (Atomics.load(m.cancel, 0) !== 0) return;
      const from = st[2 * k]!;
      const to = st[2 * k + 1]!;
      const n = to - from;
      // 0 undecided, 1 matches, 2 does not, 3 the main thread decides
      const state = new Uint8Array(n);
      const seqAt = new Uint32Array(n);
      const pos = new Int32Array(n);
      if (hexText.length < n * HEXW) hexText = texts(n, HEXW);
      const withId = new Uint8Array(n);
      const withIp = new Uint8Array(n);
      if (ipText.length < n * IPW) ipText = texts(n, IPW);
      let undecided = 0;
      for (let p = from; p < to; p++) {
        const i = p - from;
        const slot = order[p]!;
        seqAt[i] = seqs[slot]!;
        const fl = flags[slot]!;
        const code = status[slot]!;
        if (fl & hard || code === m.statusAside) {
          state[i] = 3;
          continue;
        }
        let s = statusHit[code]!;
        if (s === 0) {
          s = re.test(String(code)) ? 1 : 2;
          statusHit[code] = s;
        }
        let result = s === 1 ? 1 : 0;
        if (result === 0) {
          // the first that matches decides; else one not known here leaves it to the main thread
          let unknown = false;
          for (let d = 0; d < nd; d++) {
            const h = byValue(dictHits[d]!, dictValues[d]!, dictIds[d]![slot]!);
            if (h === 1) {
              result = 1;
              break;
            }
            if (h === 3) unknown = true;
          }
          if (result === 0 && unknown) result = 3;
        }
        if (result === 0) {
          const pid = pathIds[slot]!;
          const hid = hostIds[slot]!;
          if (pid !== 0 && hid !== 0) {
            const path = pid < pathValues.length ? pathValues[pid] : undefined;
            const host = hid < hostValues.length ? hostValues[hid] : undefined;
            if (path === undefined || host === undefined) result = 3;
            else {
              if (pathHit[pid] === 0 || pathHost[pid] !== hid) {
                pathHit[pid] = re.test(host + path) ? 1 : 2;
                pathHost[pid] = hid;
              }
              if (pathHit[pid] === 1) result = 1;
            }
          } else if (fl & B.URL_TEXT) result = 3;
          else if (pid !== 0) {
            const path = pid < pathValues.length ? pathValues[pid] : undefined;
            if (path === undefined) result = 3;
            else if (re.test(path)) result = 1;
          }
        }
        if (result === 0 && !textsMay) result = 2;
        if (result === 0) {
          // the request id and the IP are per record: written side by side, matched below
          {
            if (fl & B.RID_BIN) {
              withId[undecided] = 1;
              const o = slot * 16;
              let at = undecided * HEXW;
              for (let j = 0; j < 16; j++) {
                const byte = rid[o + j]!;
                hexText[at++] = HEXC[byte >>> 4]!;
                hexText[at++] = HEXC[byte & 15]!;
              }
            } else withId[undecided] = 0;
            // the IPv4 address as text, padded with newlines to 15 characters
            let at = undecided * IPW;
            if (fl & B.IP_V4) {
              withIp[undecided] = 1;
              const v4 = ip4[slot]!;
              for (let shift = 24; shift >= 0; shift -= 8) {
                const part = (v4 >>> shift) & 255;
                if (part >= 100) ipText[at++] = 48 + Math.floor(part / 100);
                if (part >= 10) ipText[at++] = 48 + (Math.floor(part / 10) % 10);
                ipText[at++] = 48 + (part % 10);
                if (shift > 0) ipText[at++] = 46;
              }
              for (const end = (undecided + 1) * IPW; at < end;) ipText[at++] = 10;
            } else withIp[undecided] = 0;
            pos[undecided++] = p;
          }
        }
        state[i] = result;
      }
      if (undecided > 0) {
        if (hexMay) matchTexts(hexText.toString('latin1', 0, undecided * HEXW), HEXW, undecided, state, pos, from, withId);
        if (ipMay) matchTexts(ipText.toString('latin1', 0, undecided * IPW), IPW, undecided, state, pos, from, withIp);
      }
      if (crossing) {
        for (let i = 0; i < n; i++) {
          if (state[i] === 0 || state[i] === 2) state[i] = lineState(order[from + i]!);
        }
      }
      const hits: number[] = [];
      const hitSeqs: number[] = [];
      const unsure: number[] = [];
      for (let i = 0; i < n; i++) {
        const st2 = state[i]!;
        if (st2 !== 1 && st2 !== 3) continue;
        const p = from + i;
        // the slot was given to another record while it was tested: that one is not ours to judge
        if (seqs[order[p]!] !== seqAt[i]) continue;
        if (st2 === 1) {
          hits.push(p);
          hitSeqs.push(seqAt[i]!);
        } else unsure.push(p);
      }
      const out: ScanStretchResult = {
        type: 'stretch',
        id: m.id,
        stretch: k,
        hits: Int32Array.from(hits),
        seqs: Uint32Array.from(hitSeqs),
        unsure: Int32Array.from(unsure),
        busyMs: performance.now() - started,
      };
      port.postMessage(out, [out.hits.buffer as ArrayBuffer, out.seqs.buffer as ArrayBuffer, out.unsure.buffer as ArrayBuffer]);
    }

    /** 1 when the record's whole line matches, 2 when not, 3 when a value is not here (the main thread decides). */
    function lineState(slot: number): number {
      const value = (values: (string | undefined)[], id: number): string | null | undefined => (id === 0 ? null : id < values.length ? values[id] : undefined);
      const pid = pathIds[slot]!;
      const hid = hostIds[slot]!;
      const path = value(pathValues, pid);
      const host = value(hostValues, hid);
      const parts: (string | null | undefined)[] = new Array<string | null | undefined>(layout.places.count).fill(null);
      for (let d = 0; d < nd; d++) {
        const v = value(dictValues[d]!, dictIds[d]![slot]!);
        if (v === undefined) return 3;
        parts[layout.dictPlaces[d]!] = v;
      }
      if (path === undefined || host === undefined) return 3;
      const fl = flags[slot]!;
      let ip: string | null = null;
      if (fl & B.IP_V4) {
        const v4 = ip4[slot]!;
        ip = `${v4 >>> 24}.${(v4 >>> 16) & 255}.${(v4 >>> 8) & 255}.${v4 & 255}`;
      }
      let id: string | null = null;
      if (fl & B.RID_BIN) {
        id = '';
        for (let j = slot * 16; j < slot * 16 + 16; j++) id += rid[j]!.toString(16).padStart(2, '0');
      }
      parts[layout.places.status] = String(status[slot]!);
      parts[layout.places.url] = path !== null && host !== null ? host + path : path;
      parts[layout.places.ip] = ip;
      parts[layout.places.id] = id;
      const line = lineOf(parts);
      return matchesLine(re, line) ? 1 : 2;
    }

    /** Marks the undecided records (k-th of `pos`, those `ok` says) whose text (`stride` bytes each in `text`) matches. */
    function matchTexts(text: string, stride: number, count: number, state: Uint8Array, pos: Int32Array, from: number, ok: Uint8Array | null): void {
      const width = stride - 1;
      const decide = (k: number) => {
        const i = pos[k]! - from;
        if (state[i] !== 0 || (ok !== null && ok[k] !== 1)) return;
        let end = k * stride + width;
        while (text.charCodeAt(end - 1) === 10) end--;
        if (re.test(text.slice(k * stride, end))) state[i] = 1;
      };
      if (joined) {
        all.lastIndex = 0;
        for (let hit = all.exec(text); hit !== null; hit = all.exec(text)) {
          const k = Math.floor(hit.index / stride);
          if (k >= count) break;
          decide(k);
          all.lastIndex = (k + 1) * stride;
        }
        all.lastIndex = 0;
        return;
      }
      for (let k = 0; k < count; k++) decide(k);
    }
  }

  port.on('message', (m: ScanRequest | ScanDictPiece) => {
    if (m.type === 'dict') {
      if (pieces.id !== m.id) pieces = { id: m.id, dicts: {} as ScanDictionaries };
      const into = (pieces.dicts[m.field] ??= []);
      for (let i = 0; i < m.values.length; i++) into[m.from + i] = m.values[i];
    } else if (m.type === 'scan') {
      if (pieces.id !== m.id) pieces = { id: m.id, dicts: {} as ScanDictionaries };
      run(m);
      pieces = { id: -1, dicts: {} as ScanDictionaries };
    }
  });
}

// the worker's own LinearRegExp: the same class, made in the worker from re2js's CommonJS build
declare const WorkerLinearRegExp: new (source: string, flags?: string) => LinearRegExp;

/** Where re2js's CommonJS build is (node_modules, beside the bundle or the sources). */
function re2jsPath(): string {
  return createRequire(import.meta.url).resolve('re2js');
}

/** The worker's program (made when the first worker starts: resolving re2js costs file lookups). */
// The worker runs these functions' source text (Function#toString). tsx (tests, benchmarks; esbuild with
// keepNames) wraps named functions and classes in calls to its helper __name(fn, "name"), which
// lives in the compiled module, not in that text: the worker defines it as the identity (a name is then
// not kept, which nothing here needs).
const workerSource = (): string => `
const __name = (f) => f;
const { parentPort } = require('node:worker_threads');
const { LinearRegExp: WorkerLinearRegExp } = (${makeLinearRegExp.toString()})(() => require(${JSON.stringify(re2jsPath())}).RE2JS);
${spanOnly.toString()}
${mayMatchWithin.toString()}
${lineOf.toString()}
${mayCrossFields.toString()}
${matchesLine.toString()}
(${scanWorkerMain.toString()})(parentPort, ${JSON.stringify(SCAN_LAYOUT)});
`;

export interface ScanHandlers {
  onStretch(result: ScanStretchResult): void;
  /** The worker could not run or stopped: the caller scans on its own thread. */
  onFailure(): void;
}

/** Dictionary values per message (a few ms of the main thread's time to send). */
const DICT_PIECE = 4096;

let shared: ScanWorker[] | null = null;

/**
 * The process's scan workers (shared by every view). One: on this 2-core machine under load, two
 * threads cost more CPU in all (each warms up its code and tries each dictionary value on its
 * own) and finished later; MatchScan.runInWorker deals stretches to any number.
 */
export function sharedScanWorkers(): ScanWorker[] {
  return (shared ??= [new ScanWorker()]);
}

/**
 * The worker thread that scans for patterns (a ThreadLane: started on first use, stopped after
 * `idleMs` without a scan). One scan at a time: a new one cancels the one before.
 */
export class ScanWorker {
  private readonly lane: ThreadLane;
  private nextId = 1;
  private current: { id: number; cancel: Int32Array; handlers: ScanHandlers } | null = null;

  constructor(idleMs = 5000) {
    this.lane = new ThreadLane({
      source: workerSource,
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 128 },
      idleMs,
      onMessage: (m) => {
        const result = m as ScanStretchResult;
        if (this.current?.id === result.id) this.current.handlers.onStretch(result);
      },
      onFailure: () => {
        const c = this.current;
        this.current = null;
        c?.handlers.onFailure();
      },
      canRetire: () => this.current === null,
    });
  }

  get available(): boolean {
    return !this.lane.broken;
  }

  /** Starts a scan; returns a function that cancels it. */
  scan(req: Omit<ScanRequest, 'type' | 'id' | 'cancel' | 'bits' | 'statusAside' | 'timeAside'>, dicts: ScanDictionaries, handlers: ScanHandlers): () => void {
    this.cancelCurrent();
    const id = this.nextId++;
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const current = { id, cancel, handlers };
    this.current = current;
    void this.lane.start().then((w) => {
      if (this.current !== current) return;
      if (!w) {
        this.current = null;
        handlers.onFailure();
        return;
      }
      this.lane.busy();
      // the dictionaries in pieces, a turn of the event loop each (keys are handled in between)
      const pieces: ScanDictPiece[] = [];
      for (const field of SCAN_DICT_FIELDS) {
        const values = dicts[field];
        for (let from = 0; from < values.length; from += DICT_PIECE)
          pieces.push({ type: 'dict', id, field, from, values: values.slice(from, from + DICT_PIECE) });
      }
      const send = () => {
        if (this.current !== current) return;
        const piece = pieces.shift();
        if (piece) {
          w.postMessage(piece);
          setImmediate(send);
          return;
        }
        const message: ScanRequest = { ...req, type: 'scan', id, cancel, bits: RECORD_FLAGS, statusAside: STATUS_ASIDE, timeAside: TIME_ASIDE };
        w.postMessage(message);
      };
      send();
    });
    return () => {
      if (this.current === current) this.cancelCurrent();
    };
  }

  /** The current scan's last stretch came in. */
  finished(id: number): void {
    if (this.current?.id !== id) return;
    this.current = null;
    this.lane.idle();
  }

  private cancelCurrent(): void {
    const c = this.current;
    if (!c) return;
    Atomics.store(c.cancel, 0, 1);
    this.current = null;
    this.lane.idle();
  }

  /** Stops the worker thread now. */
  async close(): Promise<void> {
    this.cancelCurrent();
    await this.lane.close();
  }
}
