import type { MessagePort, Worker as WorkerThread } from 'node:worker_threads';
import { RECORD_FLAGS, STATUS_ASIDE, type DictField, type SharedScanColumns } from '../api/logs/columns/record-columns';

/** The dictionary fields a pattern is tried on (host and path together, as host + path). */
export const SCAN_DICT_FIELDS = ['cache', 'country', 'edge', 'ua', 'referer', 'host', 'path'] as const satisfies readonly DictField[];
export type ScanDictField = (typeof SCAN_DICT_FIELDS)[number];

/** A whole-buffer scan for a worker thread: the records of `order` (slots, oldest first) in stretches. */
export interface ScanRequest {
  type: 'scan';
  id: number;
  source: string;
  flags: string;
  cols: SharedScanColumns;
  /** Dictionary values by id, as they were when the scan started. */
  dicts: Record<ScanDictField, (string | undefined)[]>;
  /** Slots of the records held when the scan started, oldest first (shared memory). */
  order: Int32Array;
  /** Stretches of `order` in the order to scan them: [from, to) pairs. */
  stretches: Int32Array;
  /** Set to non-zero to stop the scan (checked between stretches and every few thousand records). */
  cancel: Int32Array;
  bits: typeof RECORD_FLAGS;
  statusAside: number;
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
 * The worker thread's program: the same test as columnTest (any field matches: time, status,
 * cache, host + path, country, edge, IP, user agent, referer, request id), on the shared columns.
 * A dictionary value is tried once per id; an IPv4 address once per address. Self-contained: its
 * source text is what the worker evaluates.
 */
function scanWorkerMain(port: MessagePort): void {
  const HEX: string[] = [];
  for (let i = 0; i < 256; i++) HEX.push(i.toString(16).padStart(2, '0'));
  const TWO: string[] = [];
  for (let i = 0; i < 100; i++) TWO.push(String(i).padStart(2, '0'));
  const THREE: string[] = [];
  for (let i = 0; i < 1000; i++) THREE.push(String(i).padStart(3, '0'));

  function run(m: ScanRequest): void {
    const re = new RegExp(m.source, m.flags);
    const { times, seqs, flags, status, ip4, rid } = m.cols;
    const B = m.bits;
    const hard = B.TS_TEXT | B.RID_TEXT | B.IP_V6 | B.IP_TEXT;
    const ids = m.cols.ids;
    const cacheIds = ids.cache;
    const countryIds = ids.country;
    const edgeIds = ids.edge;
    const uaIds = ids.ua;
    const refererIds = ids.referer;
    const hostIds = ids.host;
    const pathIds = ids.path;
    // per dictionary: 0 not tried yet, 1 matches, 2 does not, 3 unknown id (undecided)
    const memo = (values: (string | undefined)[]) => new Uint8Array(values.length + 1);
    const dicts = m.dicts;
    const cacheHit = memo(dicts.cache);
    const countryHit = memo(dicts.country);
    const edgeHit = memo(dicts.edge);
    const uaHit = memo(dicts.ua);
    const refererHit = memo(dicts.referer);
    const pathHit = memo(dicts.path);
    const pathHost = new Int32Array(dicts.path.length + 1);
    const statusHit = new Uint8Array(65536);
    const ipHit = new Map<number, boolean>();
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
    // the ISO text of a time: the minute's prefix is made once per minute
    let minuteStart = Number.NaN;
    let minutePrefix = '';
    const iso = (t: number): string => {
      const into = t - minuteStart;
      if (!(into >= 0 && into < 60_000)) {
        if (!(t >= 0 && t < 253402300800000) || !Number.isInteger(t)) return new Date(t).toISOString();
        minuteStart = t - (t % 60_000);
        minutePrefix = new Date(minuteStart).toISOString().slice(0, 17);
        return iso(t);
      }
      const sec = Math.floor(into / 1000);
      return `${minutePrefix}${TWO[sec]}.${THREE[into - sec * 1000]}Z`;
    };
    const hexId = (o: number): string => {
      let s = '';
      for (let i = 0; i < 16; i++) s += HEX[rid[o + i]!];
      return s;
    };
    const order = m.order;
    const st = m.stretches;
    const started = performance.now();
    for (let k = 0; k < st.length / 2; k++) {
      if (Atomics.load(m.cancel, 0) !== 0) return;
      const hits: number[] = [];
      const hitSeqs: number[] = [];
      const unsure: number[] = [];
      const from = st[2 * k]!;
      const to = st[2 * k + 1]!;
      for (let p = from; p < to; p++) {
        if ((p & 4095) === 0 && Atomics.load(m.cancel, 0) !== 0) return;
        const slot = order[p]!;
        const seq = seqs[slot]!;
        const fl = flags[slot]!;
        const code = status[slot]!;
        if (fl & hard || code === m.statusAside) {
          unsure.push(p);
          continue;
        }
        let result = 0;
        let s = statusHit[code]!;
        if (s === 0) {
          s = re.test(String(code)) ? 1 : 2;
          statusHit[code] = s;
        }
        if (s === 1) result = 1;
        else {
          const c = byValue(cacheHit, dicts.cache, cacheIds[slot]!);
          const co = c === 1 ? 1 : byValue(countryHit, dicts.country, countryIds[slot]!);
          const e = co === 1 ? 1 : byValue(edgeHit, dicts.edge, edgeIds[slot]!);
          const u = e === 1 ? 1 : byValue(uaHit, dicts.ua, uaIds[slot]!);
          const r = u === 1 ? 1 : byValue(refererHit, dicts.referer, refererIds[slot]!);
          if (r === 1) result = 1;
          else if (c === 3 || co === 3 || e === 3 || u === 3 || r === 3) result = 3;
        }
        if (result === 0) {
          const pid = pathIds[slot]!;
          const hid = hostIds[slot]!;
          if (pid !== 0 && hid !== 0) {
            const path = pid < dicts.path.length ? dicts.path[pid] : undefined;
            const host = hid < dicts.host.length ? dicts.host[hid] : undefined;
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
            const path = pid < dicts.path.length ? dicts.path[pid] : undefined;
            if (path === undefined) result = 3;
            else if (re.test(path)) result = 1;
          }
        }
        if (result === 0 && re.test(iso(times[slot]!))) result = 1;
        if (result === 0 && fl & B.IP_V4) {
          const v4 = ip4[slot]!;
          let hit = ipHit.get(v4);
          if (hit === undefined) {
            if (ipHit.size >= 1_000_000) ipHit.clear();
            hit = re.test(`${v4 >>> 24}.${(v4 >>> 16) & 255}.${(v4 >>> 8) & 255}.${v4 & 255}`);
            ipHit.set(v4, hit);
          }
          if (hit) result = 1;
        }
        if (result === 0 && fl & B.RID_BIN && re.test(hexId(slot * 16))) result = 1;
        // the slot was given to another record while it was tested: that one is not ours to judge
        if (seqs[slot] !== seq) continue;
        if (result === 1) {
          hits.push(p);
          hitSeqs.push(seq);
        } else if (result === 3) unsure.push(p);
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
  }

  port.on('message', (m: ScanRequest) => {
    if (m.type === 'scan') run(m);
  });
}

const WORKER_SOURCE = `
const __name = (f) => f;
const { parentPort } = require('node:worker_threads');
(${scanWorkerMain.toString()})(parentPort);
`;

export interface ScanHandlers {
  onStretch(result: ScanStretchResult): void;
  /** The worker could not run or stopped: the caller scans on its own thread. */
  onFailure(): void;
}

let shared: ScanWorker | null = null;

/** The process's scan worker (one thread for every view). */
export function sharedScanWorker(): ScanWorker {
  return (shared ??= new ScanWorker());
}

/**
 * The worker thread that scans for patterns, started on first use and stopped after `idleMs`
 * without a scan (its heap is not kept). One scan at a time: a new one cancels the one before.
 */
export class ScanWorker {
  private worker: WorkerThread | null = null;
  private starting: Promise<WorkerThread | null> | null = null;
  private broken = false;
  private nextId = 1;
  private current: { id: number; cancel: Int32Array; handlers: ScanHandlers } | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly idleMs = 5000) {}

  get available(): boolean {
    return !this.broken;
  }

  /** Starts a scan; returns a function that cancels it. */
  scan(req: Omit<ScanRequest, 'type' | 'id' | 'cancel' | 'bits' | 'statusAside'>, handlers: ScanHandlers): () => void {
    this.cancelCurrent();
    const id = this.nextId++;
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const current = { id, cancel, handlers };
    this.current = current;
    this.clearIdle();
    void this.start().then((w) => {
      if (this.current !== current) return;
      if (!w) {
        this.current = null;
        handlers.onFailure();
        return;
      }
      w.ref();
      const message: ScanRequest = { ...req, type: 'scan', id, cancel, bits: RECORD_FLAGS, statusAside: STATUS_ASIDE };
      w.postMessage(message);
    });
    return () => {
      if (this.current === current) this.cancelCurrent();
    };
  }

  /** The current scan's last stretch came in. */
  finished(id: number): void {
    if (this.current?.id !== id) return;
    this.current = null;
    this.idle();
  }

  private cancelCurrent(): void {
    const c = this.current;
    if (!c) return;
    Atomics.store(c.cancel, 0, 1);
    this.current = null;
    this.idle();
  }

  private idle(): void {
    this.worker?.unref();
    this.clearIdle();
    this.idleTimer = setTimeout(() => this.retire(), this.idleMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private retire(): void {
    this.idleTimer = null;
    const w = this.worker;
    if (!w || this.current) return;
    this.worker = null;
    this.starting = null;
    void w.terminate();
  }

  private start(): Promise<WorkerThread | null> {
    if (this.worker) return Promise.resolve(this.worker);
    this.starting ??= import('node:worker_threads').then(
      ({ Worker }) => {
        try {
          const w = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 128 } });
          w.unref();
          w.on('message', (m: ScanStretchResult) => {
            if (this.current?.id === m.id) this.current.handlers.onStretch(m);
          });
          const fail = () => {
            if (this.worker !== w) return;
            this.worker = null;
            this.starting = null;
            this.broken = true;
            const c = this.current;
            this.current = null;
            c?.handlers.onFailure();
          };
          w.on('error', fail);
          w.on('exit', fail);
          this.worker = w;
          return w;
        } catch {
          this.broken = true;
          return null;
        }
      },
      () => {
        this.broken = true;
        return null;
      },
    );
    return this.starting;
  }

  /** Stops the worker thread now. */
  async close(): Promise<void> {
    this.cancelCurrent();
    this.clearIdle();
    const w = this.worker;
    this.worker = null;
    this.starting = null;
    if (w) await w.terminate();
  }
}
