// The page reader's worker share on one thread: every page of a log-engine data set through
// createPageEncoder(CODEC_FIELDS, undefined, createByteRecordReader).encodeBytes, CPU of the parse only.
//   node --import tsx bench/page-parse-cpu.ts /tmp/burrow-bench-logs-1000000/manifest.json [runs]
// Prints the best CPU time of the runs and a digest of the encoded pages (equal digests: equal output).
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { createByteRecordReader as ReaderFactory } from '../src/log-engine/page-bytes';
import type { createPageEncoder as EncoderFactory, EncodedPage } from '../src/log-engine/page-codec';
import type { LogData } from './lib/log-data';

// BENCH_SRC: another copy of src/ to compare with (e.g. a `git archive` of an older commit)
const src = process.env.BENCH_SRC ?? new URL('../src', import.meta.url).pathname;
const { createByteRecordReader } = (await import(`${src}/log-engine/page-bytes.ts`)) as { createByteRecordReader: typeof ReaderFactory };
const codec = (await import(`${src}/log-engine/page-codec.ts`)) as {
  createPageEncoder: typeof EncoderFactory;
  CODEC_FIELDS?: Parameters<typeof EncoderFactory>[0];
};
// older sources (BENCH_SRC) took no field table
const createPageEncoder = (limit: undefined, reader: typeof createByteRecordReader) =>
  codec.CODEC_FIELDS
    ? codec.createPageEncoder(codec.CODEC_FIELDS, limit, reader)
    : (codec.createPageEncoder as unknown as (l: undefined, r: unknown) => ReturnType<typeof EncoderFactory>)(limit, reader);
const data = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LogData;
const runs = Number(process.argv[3] ?? 3);
const pages = data.pages.map((p) => fs.readFileSync(p));

function digest(encoded: EncodedPage[]): string {
  const h = crypto.createHash('sha256');
  const bytes = (a: ArrayBufferView) => h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  for (const p of encoded) {
    h.update(`${p.count} ${p.skipped} ${JSON.stringify(p.envelope)} ${p.syntaxError ?? ''}|`);
    for (const a of [p.nums, p.times, p.rid, p.ip4, p.ip6, p.codes, p.ends, p.firstValue, p.newFields]) bytes(a);
    h.update(JSON.stringify(p.joined));
    h.update(JSON.stringify(p.newValues));
  }
  return h.digest('hex').slice(0, 16);
}

let best = Infinity;
let records = 0;
let sum = '';
for (let r = 0; r < runs; r++) {
  const encoder = createPageEncoder(undefined, createByteRecordReader);
  const out: EncodedPage[] = [];
  const cpu0 = process.cpuUsage();
  for (const bytes of pages) out.push(encoder.encodeBytes(bytes));
  const cpu = process.cpuUsage(cpu0);
  best = Math.min(best, (cpu.user + cpu.system) / 1000);
  records = out.reduce((s, p) => s + p.count, 0);
  sum = digest(out);
}
console.log(JSON.stringify({ records, cpuMs: Math.round(best), perMillionMs: Math.round((best / records) * 1e6), digest: sum }));
