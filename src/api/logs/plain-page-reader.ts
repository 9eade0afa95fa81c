import { entryKey, entryTime, readLogEntry, type LogEntry } from './entry';
import type { PageBatch, PageBodyReader, ReadPage, V1Piece, V1PieceSpec } from './page';
import { createV1Reader, V1_SOURCES } from './v1';

/** Records as objects, as a PageBatch. */
class EntriesBatch implements PageBatch {
  constructor(private readonly records: LogEntry[]) {}

  get length(): number {
    return this.records.length;
  }

  key(i: number): string {
    return entryKey(this.records[i]!);
  }

  head(n: number): PageBatch {
    return n >= this.records.length ? this : new EntriesBatch(this.records.slice(0, Math.max(0, n)));
  }

  entries(): LogEntry[] {
    return this.records;
  }
}

/**
 * Page bodies read on the calling thread with JSON.parse and readLogEntry, into objects: what
 * LogsApi uses when it is not given the log engine's LogPageReader (a short command, a test of
 * the client alone). Rejects with a SyntaxError when a body is not JSON.
 */
export const plainPageReader: PageBodyReader = {
  async read(body: string | Uint8Array): Promise<ReadPage> {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    const json: unknown = JSON.parse(text);
    const data = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as { data?: unknown }).data : undefined;
    if (!Array.isArray(data)) return { batch: new EntriesBatch([]), entries: [], times: new Float64Array(0), skipped: 0, envelope: json, hasData: false };
    const { data: _data, ...envelope } = json as { data: unknown[] };
    const records: LogEntry[] = [];
    for (const item of data) {
      const e = readLogEntry(item);
      if (e) records.push(e);
    }
    const times = Float64Array.from(records, entryTime);
    return { batch: new EntriesBatch(records), entries: records, times, skipped: data.length - records.length, envelope, hasData: true };
  },
  async readV1(bytes: Uint8Array, spec: V1PieceSpec): Promise<V1Piece> {
    const { entries, ...counts } = createV1Reader(V1_SOURCES).readLines(new TextDecoder().decode(bytes), spec.zoneId, spec.firstLine, spec.problemRoom);
    return { batch: new EntriesBatch(entries), times: Float64Array.from(entries, entryTime), ...counts };
  },
};
