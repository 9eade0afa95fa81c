import fs from 'node:fs';
import path from 'node:path';
import { appendPrivateFile, writePrivateFile } from '../config/private-file';
import { redact } from '../config/redact';
import { HISTORY_MAX } from './history';

/**
 * History files: one per database, `<stateDir>/sql-history/<host>.jsonl`, mode 0600, one JSON
 * string per line (entries may span lines). The key is the database's host and path, never
 * its token; registered secrets are masked before anything is written.
 */

/** File-name-safe key for a database: host (and path for `/db/NAME/` databases). */
export function historyKey(databaseUrl: string): string {
  let host = databaseUrl;
  let pathname = '';
  try {
    const u = new URL(databaseUrl);
    host = u.host;
    pathname = u.pathname;
  } catch {
    // an unparsable URL still gets a stable key from its text
  }
  const key = `${host}${pathname.replace(/\/+$/, '')}`
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return key.slice(0, 120) || 'database';
}

export function historyPath(stateDirectory: string, key: string): string {
  return path.join(stateDirectory, 'sql-history', `${key}.jsonl`);
}

/** The last `max` entries of a history file; a missing or damaged file gives what can be read. */
export function loadHistory(file: string, max = HISTORY_MAX): string[] {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of raw.split('\n')) {
    if (!line) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'string' && v.trim() !== '') out.push(v);
    } catch {
      // a torn last line (a crash mid-write) is skipped
    }
  }
  return out.length > max ? out.slice(out.length - max) : out;
}

/**
 * Appends one entry (secrets masked). When the file has grown to twice `max` entries it is
 * rewritten with the last `max`, so it never grows without bound.
 */
export function appendHistory(file: string, entry: string, max = HISTORY_MAX): void {
  appendPrivateFile(file, `${JSON.stringify(redact(entry))}\n`);
  let size = 0;
  try {
    size = fs.statSync(file).size;
  } catch {
    return;
  }
  // cheap check first: only count lines when the file is big enough to matter
  if (size < max * 40) return;
  const all = loadHistory(file, Number.MAX_SAFE_INTEGER);
  if (all.length >= max * 2)
    writePrivateFile(
      file,
      all
        .slice(all.length - max)
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
    );
}
