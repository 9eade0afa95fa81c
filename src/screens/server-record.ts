import { rawJsonOf } from '../api/raw-json';
import type { RawRecord } from '../text/raw-record';

/**
 * The raw view's record of a parsed API object: the JSON the server sent for it, or the parsed
 * object itself when the raw one was not kept (said in the title).
 */
export function serverRecord(title: string, parsed: unknown): RawRecord {
  const raw = rawJsonOf(parsed);
  return raw === undefined ? { title: `${title} (as parsed)`, value: parsed } : { title, value: raw };
}
