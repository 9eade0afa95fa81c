import { LOG_FIELDS, type V1Source } from '../../log-fields/fields';
import type { LogEntry } from './entry';

/**
 * The legacy v1 log format: one request per line, 12 fields separated by '|':
 *
 *   cache|status|timestamp-ms|bytes|pullzone|ip|referer|url|edge|user-agent|request-id|country
 *
 * '|' is not escaped by the platform, and the referer, URL and user agent can contain it. The
 * fixed fields sit at both ends (six on the left, request id and country on the right), so the
 * parser reads from both sides, then splits the middle: the URL is the first piece (after the
 * referer's first) that starts with a scheme, the edge is the first piece after the URL that
 * looks like an edge code, and the user agent takes the rest. This is exact whenever the referer
 * has no piece after a '|' that starts with "http(s)://" and the URL has no piece after a '|'
 * that is a bare edge code; beyond that the format itself is ambiguous.
 *
 * Bad lines (truncated, non-numeric status or timestamp) are counted as skipped, never thrown.
 * Empty fields and '-' read as null.
 */

export const V1_FIELDS = 12;

/** The columns of a v1 line in order, then the parts of its URL: the values createV1Reader reads from a line. */
const V1_VALUES = [
  'cache',
  'status',
  'timestamp-ms',
  'bytes',
  'pullzone',
  'ip',
  'referer',
  'url',
  'edge',
  'user-agent',
  'request-id',
  'country',
  'url scheme',
  'url host',
  'url path',
] as const satisfies readonly V1Source[];

/** Each field of a record (the field table's order) and the v1 value it comes from (null: v1 has none). */
export const V1_SOURCES: readonly (readonly [string, V1Source | null])[] = LOG_FIELDS.map((f) => [f.name, f.v1] as const);

export interface V1ParseResult {
  entries: LogEntry[];
  /** Epoch ms of each entry, same order. */
  times: number[];
  /** Non-blank lines that could not be read. */
  skipped: number;
  /** The first few skipped lines: 1-based line number and why. */
  problems: { line: number; reason: string }[];
  /** Non-blank lines seen. */
  lines: number;
}

/** Lines of one piece of a v1 file read (see createV1Reader). */
export interface V1Lines {
  entries: LogEntry[];
  skipped: number;
  problems: { line: number; reason: string }[];
  /** Non-blank lines seen. */
  lines: number;
  /** Every line ended in the piece, blank ones too (to number the next piece's lines). */
  lineEnds: number;
}

export interface V1Reader {
  /** One line as a LogEntry, or the reason it cannot be read. `zoneId` fills an empty pull zone field. */
  parseLine(raw: string, zoneId: number | null): LogEntry | string;
  /**
   * Every line of a text (LF, CRLF or a lone CR ends a line; a BOM at the start is dropped); line
   * numbers in problems start at `firstLine`; at most `problemRoom` problems are kept.
   */
  readLines(text: string, zoneId: number | null, firstLine?: number, problemRoom?: number): V1Lines;
  /** The same, each record given to `onEntry` as it is read instead of kept (`entries` stays empty). */
  readLinesEach(text: string, zoneId: number | null, firstLine: number, problemRoom: number, onEntry: (entry: LogEntry) => void): V1Lines;
}

/** Problems kept per file. */
export const MAX_V1_PROBLEMS = 20;

/**
 * The reader. Self-contained on purpose (it refers to nothing outside its body): the log page
 * reader's worker thread runs this function's source text to read a streamed day off the main
 * thread.
 */
export function createV1Reader(sources: readonly (readonly [string, string | null])[]): V1Reader {
  const FIELDS = 12;
  // V1_VALUES (this function refers to nothing outside its body)
  const VALUES = [
    'cache',
    'status',
    'timestamp-ms',
    'bytes',
    'pullzone',
    'ip',
    'referer',
    'url',
    'edge',
    'user-agent',
    'request-id',
    'country',
    'url scheme',
    'url host',
    'url path',
  ];
  // The record from a line's values, its fields in the table's order: written out once, as one
  // would by hand (a loop per line over the sources was slower).
  const props = sources.map(([name, value]) => {
    if (!/^[A-Za-z_]\w*$/.test(name) || (value !== null && !VALUES.includes(value))) throw new Error(`v1 source of ${JSON.stringify(name)}: ${value}`);
    return `${JSON.stringify(name)}: ${value === null ? 'null' : `v${VALUES.indexOf(value)}`}`;
  });
  const makeEntry = new Function(...VALUES.map((_, i) => `v${i}`), `return { ${props.join(', ')} };`) as (...values: unknown[]) => LogEntry;
  const EDGE = /^[A-Z][A-Z0-9-]{1,7}$/;
  const SCHEME_URL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s;
  const HTTP_PREFIX = /^https?:\/\//i;
  const nullish = (v: string): string | null => (v === '' || v === '-' ? null : v);

  function parseLine(raw: string, zoneId: number | null): LogEntry | string {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const parts = line.split('|');
    const n = parts.length;
    if (n < FIELDS) return `truncated: ${n} of ${FIELDS} fields`;
    const [cache, statusText, tsText, bytesText, zoneText, ip] = parts as [string, string, string, string, string, string];
    if (!/^\d{3}$/.test(statusText)) return `status "${statusText.slice(0, 20)}" is not a 3-digit code`;
    if (!/^\d{1,15}$/.test(tsText)) return `timestamp "${tsText.slice(0, 20)}" is not epoch milliseconds`;
    const ts = Number(tsText);
    const bytes = /^\d{1,15}$/.test(bytesText) ? Number(bytesText) : bytesText === '' || bytesText === '-' ? 0 : Number.NaN;
    if (Number.isNaN(bytes)) return `bytes "${bytesText.slice(0, 20)}" is not a number`;
    let zone: number;
    if (/^\d{1,15}$/.test(zoneText)) zone = Number(zoneText);
    else if ((zoneText === '' || zoneText === '-') && zoneId !== null) zone = zoneId;
    else return `pull zone "${zoneText.slice(0, 20)}" is not a number`;

    // Middle: referer | url | edge | user agent, any of referer/url/user agent possibly with '|'.
    const first = 6;
    const last = n - 3; // index of the last middle piece
    let u = first + 1;
    for (let i = first + 1; i <= last - 2; i++) {
      if (HTTP_PREFIX.test(parts[i]!)) {
        u = i;
        break;
      }
    }
    let e = u + 1;
    for (let i = u + 1; i <= last - 1; i++) {
      if (EDGE.test(parts[i]!)) {
        e = i;
        break;
      }
    }
    const referer = u === first + 1 ? parts[first]! : parts.slice(first, u).join('|');
    const url = e === u + 1 ? parts[u]! : parts.slice(u, e).join('|');
    const edge = parts[e]!;
    const ua = e + 1 === last ? parts[last]! : parts.slice(e + 1, last + 1).join('|');
    const requestId = parts[n - 2]!;
    const country = parts[n - 1]!;

    let scheme: string | null = null;
    let host: string | null = null;
    let path: string | null = null;
    const urlValue = nullish(url);
    if (urlValue !== null) {
      const m = SCHEME_URL.exec(urlValue);
      if (m) {
        scheme = m[1]!.toLowerCase();
        host = m[2]!;
        path = m[3]!;
      } else if (urlValue.startsWith('/')) {
        path = urlValue;
      }
    }
    const date = new Date(ts);
    if (Number.isNaN(date.getTime())) return `timestamp ${tsText} is out of range`;
    // in VALUES' order
    return makeEntry(
      cache === '' ? null : cache,
      Number(statusText),
      date.toISOString(),
      bytes,
      zone,
      nullish(ip),
      nullish(referer),
      urlValue,
      nullish(edge),
      nullish(ua),
      nullish(requestId),
      nullish(country),
      scheme,
      host,
      path,
    );
  }

  function readLines(text: string, zoneId: number | null, firstLine = 1, problemRoom = 20): V1Lines {
    const entries: LogEntry[] = [];
    const result = readLinesEach(text, zoneId, firstLine, problemRoom, (e) => entries.push(e));
    result.entries = entries;
    return result;
  }

  function readLinesEach(text: string, zoneId: number | null, firstLine: number, problemRoom: number, onEntry: (entry: LogEntry) => void): V1Lines {
    const result: V1Lines = { entries: [], skipped: 0, problems: [], lines: 0, lineEnds: 0 };
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    let start = 0;
    const len = body.length;
    while (start < len) {
      let end = start;
      while (end < len) {
        const c = body.charCodeAt(end);
        if (c === 10 || c === 13) break;
        end++;
      }
      const lineNo = firstLine + result.lineEnds;
      const line = body.slice(start, end);
      if (line.trim() !== '') {
        result.lines++;
        const parsed = parseLine(line, zoneId);
        if (typeof parsed === 'string') {
          result.skipped++;
          if (result.problems.length < problemRoom) result.problems.push({ line: lineNo, reason: parsed });
        } else {
          onEntry(parsed);
        }
      }
      if (end >= len) break;
      result.lineEnds++;
      // CRLF is one line end.
      start = body.charCodeAt(end) === 13 && body.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
    }
    return result;
  }

  return { parseLine, readLines, readLinesEach };
}

const reader = createV1Reader(V1_SOURCES);

/** One line as a LogEntry, or the reason it cannot be read. `zoneId` fills an empty pull zone field. */
export function parseV1Line(raw: string, zoneId: number | null = null): LogEntry | string {
  return reader.parseLine(raw, zoneId);
}

/** Every line of a v1 file. Lines end with LF or CRLF; a lone CR also ends a line. */
export function parseV1(text: string, zoneId: number | null = null): V1ParseResult {
  const r = reader.readLines(text, zoneId, 1, MAX_V1_PROBLEMS);
  return { entries: r.entries, times: r.entries.map((e) => Date.parse(e.timestamp)), skipped: r.skipped, problems: r.problems, lines: r.lines };
}

const fieldOf = (value: V1Source) => V1_SOURCES.find(([, v]) => v === value)?.[0] as keyof LogEntry;
/** The fields of a v1 line, in its order. */
const LINE_FIELDS = V1_VALUES.slice(0, V1_FIELDS).map((v) => ({ name: fieldOf(v), value: v }));
const [URL_AT, SCHEME_AT, HOST_AT, PATH_AT] = (['url', 'url scheme', 'url host', 'url path'] as const).map(fieldOf) as [
  keyof LogEntry,
  keyof LogEntry,
  keyof LogEntry,
  keyof LogEntry,
];

/** The v1 line of an entry (the inverse of parseV1Line for the fields v1 carries). */
export function formatV1Line(e: LogEntry): string {
  const out: (string | number)[] = [];
  for (const { name, value } of LINE_FIELDS) {
    const v = e[name];
    if (value === 'timestamp-ms') out.push(Date.parse(v as string));
    else if (value === 'url') {
      const [scheme, host, path] = [e[SCHEME_AT], e[HOST_AT], e[PATH_AT]];
      out.push(e[URL_AT] ?? (scheme !== null && host !== null ? `${scheme}://${host}${path ?? ''}` : (path ?? '-')));
    } else out.push(v ?? (value === 'cache' ? '' : '-'));
  }
  return out.join('|');
}

/** MM-dd-yy of a UTC day, the v1 path form. */
export function v1Date(ms: number): string {
  const d = new Date(ms);
  const p = (x: number) => String(x).padStart(2, '0');
  return `${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}-${p(d.getUTCFullYear() % 100)}`;
}

/** Start of the UTC day of an MM-dd-yy date, or NaN. */
export function parseV1Date(text: string): number {
  const m = /^(\d{2})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return Number.NaN;
  const t = Date.UTC(2000 + Number(m[3]), Number(m[1]) - 1, Number(m[2]));
  const d = new Date(t);
  return d.getUTCMonth() === Number(m[1]) - 1 && d.getUTCDate() === Number(m[2]) ? t : Number.NaN;
}
