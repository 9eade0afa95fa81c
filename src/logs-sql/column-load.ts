import type { DuckDBAppender, DuckDBConnection, DuckDBType, DuckDBVector } from '@duckdb/node-api';
import type { DictField, RecordColumns } from '../log-engine/columns/record-columns';
import { LOG_FIELDS } from '../log-fields/fields';

type DuckDb = typeof import('@duckdb/node-api');

/** Rows per data chunk: DuckDB's vector size. */
const CHUNK_ROWS = 2048;

const STAGE = '__burrow_stage';
const DICT = '__burrow_dict';

type DictDef = Extract<(typeof LOG_FIELDS)[number], { storage: 'dictionary' }>;
type StoredDef = Extract<(typeof LOG_FIELDS)[number], { duckdb: object }>;

/** The fields with a column in `logs`, in the table's order (the field table's `duckdb`). */
const STORED: readonly StoredDef[] = LOG_FIELDS.filter((f): f is StoredDef => f.duckdb !== null);

/** Dictionary fields of the store that become columns of `logs` (a stage column of ids each, named as the column). */
const DICT_COLUMNS: readonly { field: DictField; column: string }[] = STORED.filter((f): f is Extract<StoredDef, DictDef> => f.storage === 'dictionary').map(
  (f) => ({ field: f.name, column: f.duckdb.column }),
);

/**
 * The stage: numbers only (a data chunk of numbers costs one native call per column, not one per value).
 * Written by appendChunk: the time, a number field's column under the name it has in `logs`
 * (DOUBLE: NaN for null), the IPv4 address, the request id's four words, then the dictionary ids.
 */
const STAGE_COLUMNS: readonly { name: string; type: 'DOUBLE' | 'UINTEGER' | 'INTEGER' }[] = [
  { name: 't', type: 'DOUBLE' },
  { name: 'status', type: 'INTEGER' },
  { name: 'bytes', type: 'DOUBLE' },
  { name: 'asn', type: 'DOUBLE' },
  { name: 'ip', type: 'UINTEGER' },
  { name: 'r0', type: 'UINTEGER' },
  { name: 'r1', type: 'UINTEGER' },
  { name: 'r2', type: 'UINTEGER' },
  { name: 'r3', type: 'UINTEGER' },
  ...DICT_COLUMNS.map((d) => ({ name: d.column, type: 'UINTEGER' as const })),
];

const joinOf = (i: number) => `LEFT JOIN ${DICT} d${i} ON d${i}.f = ${i} AND d${i}.id = s.${DICT_COLUMNS[i]!.column}`;
const text = (field: DictField) => `d${DICT_COLUMNS.findIndex((d) => d.field === field)}.v`;

/** A column of `logs` from the stage and the dictionary, by how the store keeps its field. */
function selectOf(f: StoredDef): string {
  const { column, type } = f.duckdb;
  switch (f.storage) {
    case 'time':
      return 'epoch_ms(s.t::BIGINT)';
    case 'dictionary':
      return f.type === 'number' ? `${text(f.name)}::${type}` : text(f.name);
    case 'number': {
      const staged = STAGE_COLUMNS.find((c) => c.name === column);
      if (!staged) throw new Error(`the DuckDB load stages no column ${column} (logs-sql/column-load.ts)`);
      return staged.type === 'DOUBLE' ? `CASE WHEN isnan(s.${column}) THEN NULL ELSE s.${column}::${type} END` : `s.${column}`;
    }
    case 'address':
      return "concat_ws('.', s.ip >> 24, (s.ip >> 16) & 255, (s.ip >> 8) & 255, s.ip & 255)";
    case 'id':
      return "lpad(lower(hex((s.r0::UHUGEINT << 96) | (s.r1::UHUGEINT << 64) | (s.r2::UHUGEINT << 32) | s.r3::UHUGEINT)), 32, '0')";
    default:
      throw new Error(`the DuckDB load has no stage for the column ${column} (logs-sql/column-load.ts)`);
  }
}

/** From the stage and the dictionary into `logs`. */
const INSERT = `INSERT INTO logs (${STORED.map((f) => f.duckdb.column).join(', ')})
SELECT ${STORED.map(selectOf).join(', ')}
FROM ${STAGE} s ${DICT_COLUMNS.map((_, i) => joinOf(i)).join(' ')}`;

/** The four bytes of a 32-bit word in memory order, as the number whose hex reads them in that order. */
function byteSwap(w: number): number {
  return (((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;
}

/**
 * A record the stage can carry: a 32-hex-digit request id, an IPv4 address, numbers in range.
 * Anything else (a text request id, IPv6, no IP) goes through the row appender; such records are rare.
 */
function regular(columns: RecordColumns, slot: number): boolean {
  if (!columns.hasBinaryId(slot) || columns.ipv4(slot) < 0) return false;
  const s = columns.statusCode(slot);
  return Number.isInteger(s) && s >= -0x80000000 && s <= 0x7fffffff;
}

/** Gives the event loop a turn (between slices of a long load). */
export type Yield = () => Promise<void>;

/** Work done between two turns of the event loop: well under a frame. */
export const SLICE_MS = 6;

/**
 * Dictionary ids of one field, numbered again for one load: the store may give a number back and
 * reuse it for another value while a sliced load waits, so a number is kept only while its
 * value is still the same (string identity: the store keeps one string per value).
 */
class LocalIds {
  /** Store id -> local id (0: none yet). */
  private ids = new Int32Array(256);
  readonly values: (string | null)[] = [null];

  id(storeId: number, value: string | null): number {
    if (value === null) return 0;
    if (storeId >= this.ids.length) {
      const grown = new Int32Array(Math.max(storeId + 1, this.ids.length * 2));
      grown.set(this.ids);
      this.ids = grown;
    }
    const known = this.ids[storeId]!;
    if (known !== 0 && this.values[known] === value) return known;
    const id = this.values.length;
    this.values.push(value);
    this.ids[storeId] = id;
    return id;
  }
}

/**
 * Loads records straight from the columnar store into `logs`: the numbers and dictionary ids go
 * into a temporary stage table in data chunks (one native call per column per 2048 rows), each
 * dictionary value used goes into a small table once, and one INSERT ... SELECT joins them into
 * text. The row appender made about 14 native calls per record (1,000,000 in 6.9 s).
 *
 * The stage is built in slices of a few milliseconds with `pause` between them, so a follow's
 * keystrokes are not held up; a record that left the store meanwhile (its slot's sequence number
 * changed) is skipped. Returns how many went in and the slots it could not carry (a text request
 * id, an IPv6 address, no IP: rare; the caller appends those as rows).
 */
export async function loadColumns(
  duck: DuckDb,
  connection: DuckDBConnection,
  columns: RecordColumns,
  slots: ArrayLike<number>,
  seqs: ArrayLike<number>,
  pause: Yield,
  sliceMs = SLICE_MS,
): Promise<{ loaded: number; rest: number[] }> {
  const rest: number[] = [];
  if (slots.length === 0) return { loaded: 0, rest };
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${STAGE} (${STAGE_COLUMNS.map((c) => `${c.name} ${c.type}`).join(', ')})`);
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${DICT} (f UTINYINT, id UINTEGER, v VARCHAR)`);
  try {
    const locals = DICT_COLUMNS.map(() => new LocalIds());
    let loaded = 0;
    const stage = await connection.createAppender(STAGE, 'main', 'temp');
    try {
      const types = stageTypes(duck);
      let at = 0;
      while (at < slots.length) {
        const started = performance.now();
        do {
          const end = Math.min(slots.length, at + CHUNK_ROWS);
          loaded += appendChunk(duck, types, stage, columns, slots, seqs, at, end, locals, rest);
          at = end;
        } while (at < slots.length && performance.now() - started < sliceMs);
        if (at < slots.length) await pause();
      }
    } finally {
      stage.closeSync();
    }
    if (loaded === 0) return { loaded, rest };
    const dict = await connection.createAppender(DICT, 'main', 'temp');
    try {
      await appendDictionaries(duck, dict, locals, pause, sliceMs);
    } finally {
      dict.closeSync();
    }
    await connection.run(INSERT);
    return { loaded, rest };
  } finally {
    await connection.run(`DROP TABLE IF EXISTS temp.${STAGE}; DROP TABLE IF EXISTS temp.${DICT}`);
  }
}

/** Every (field, local id, text) as data chunks: one native call per text, in slices like the stage. */
async function appendDictionaries(duck: DuckDb, appender: DuckDBAppender, locals: LocalIds[], pause: Yield, sliceMs: number): Promise<void> {
  const types = [duck.UTINYINT, duck.UINTEGER, duck.VARCHAR];
  const all: [number, number, string][] = [];
  locals.forEach((local, f) => {
    for (let id = 1; id < local.values.length; id++) all.push([f, id, local.values[id]!]);
  });
  let started = performance.now();
  for (let from = 0; from < all.length; from += CHUNK_ROWS) {
    const n = Math.min(CHUNK_ROWS, all.length - from);
    const chunk = duck.DuckDBDataChunk.create(types, n);
    const [f, id, v] = [0, 1, 2].map((i) => chunk.getColumnVector(i)) as [DuckDBVector, DuckDBVector, DuckDBVector];
    for (let k = 0; k < n; k++) {
      const row = all[from + k]!;
      f.setItem(k, row[0]);
      id.setItem(k, row[1]);
      v.setItem(k, row[2]);
    }
    f.flush();
    id.flush();
    v.flush();
    appender.appendDataChunk(chunk);
    if (performance.now() - started >= sliceMs && from + CHUNK_ROWS < all.length) {
      await pause();
      started = performance.now();
    }
  }
}

function stageTypes(duck: DuckDb): DuckDBType[] {
  return STAGE_COLUMNS.map((c) => (c.type === 'DOUBLE' ? duck.DOUBLE : c.type === 'INTEGER' ? duck.INTEGER : duck.UINTEGER));
}

/** Slots [from, end) that are still held and regular, as one data chunk; returns how many. */
function appendChunk(
  duck: DuckDb,
  types: DuckDBType[],
  appender: DuckDBAppender,
  columns: RecordColumns,
  slots: ArrayLike<number>,
  seqs: ArrayLike<number>,
  from: number,
  end: number,
  locals: LocalIds[],
  rest: number[],
): number {
  const picked: number[] = [];
  for (let i = from; i < end; i++) {
    const slot = slots[i]!;
    if (columns.seqs[slot] !== seqs[i]) continue;
    if (regular(columns, slot)) picked.push(slot);
    else rest.push(slot);
  }
  const n = picked.length;
  if (n === 0) return 0;
  const chunk = duck.DuckDBDataChunk.create(types, n);
  const v = types.map((_, i) => chunk.getColumnVector(i));
  const [t, status, bytes, asn, ip, r0, r1, r2, r3] = v.slice(0, 9) as [
    DuckDBVector,
    DuckDBVector,
    DuckDBVector,
    DuckDBVector,
    DuckDBVector,
    DuckDBVector,
    DuckDBVector,
    DuckDBVector,
    DuckDBVector,
  ];
  const words = columns.ridWords;
  const idCols = DICT_COLUMNS.map((d) => columns.idCols[d.field]);
  const dicts = DICT_COLUMNS.map((d) => columns.dicts[d.field]);
  for (let k = 0; k < n; k++) {
    const slot = picked[k]!;
    t.setItem(k, columns.time(slot));
    status.setItem(k, columns.statusCode(slot));
    bytes.setItem(k, columns.bytesSentOf(slot) ?? Number.NaN);
    asn.setItem(k, columns.asnOf(slot) ?? Number.NaN);
    ip.setItem(k, columns.ipv4(slot));
    const w = slot * 4;
    r0.setItem(k, byteSwap(words[w]!));
    r1.setItem(k, byteSwap(words[w + 1]!));
    r2.setItem(k, byteSwap(words[w + 2]!));
    r3.setItem(k, byteSwap(words[w + 3]!));
    for (let d = 0; d < idCols.length; d++) {
      const sid = idCols[d]!.get(slot);
      v[9 + d]!.setItem(k, locals[d]!.id(sid, dicts[d]!.value(sid)));
    }
  }
  for (const vector of v) vector.flush();
  appender.appendDataChunk(chunk);
  return n;
}
