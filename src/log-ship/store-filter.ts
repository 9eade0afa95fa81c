import type { NormalizedFilter } from '../api/logs/query';
import { LOG_FIELDS, type FilterMatch, type LogFieldDef } from '../log-fields/fields';
import { sqlIdentifier, sqlLiteral } from './sql-text';

/**
 * The platform's log filters (a NormalizedFilter, as `burrow logs` flags give it) as a ClickHouse
 * WHERE condition over the store's table, with the platform's semantics (the LOG-OAS table in
 * shared/reference/platform-api-facts.md, and the emulator's v2 query):
 * - which column a filter reads and how it matches (status codes/classes, a list: exact, any of
 *   them; contains: case-insensitive substring; exact: one value, any case) are the field table's
 *   `serverFilter`; which fields `search` reads is its `searched`: no list of fields here;
 * - every value goes into the SQL text through sqlLiteral.
 * Null when nothing filters.
 */
export function storeFilterSql(filter: NormalizedFilter): string | null {
  const parts: string[] = [];
  for (const field of LOG_FIELDS) {
    const def = field.serverFilter;
    if (def === null || !(def.param in filter)) continue;
    const condition = fieldCondition(field, def.match, filter[def.param as keyof NormalizedFilter]);
    if (condition !== null) parts.push(condition);
  }
  const search = searchCondition(filter.search);
  if (search !== null) parts.push(search);
  return parts.length ? parts.map((p) => `(${p})`).join(' AND ') : null;
}

/**
 * The text a filter on the field reads. A derived field (the full URL) is matched by the platform
 * without its `…://` prefix, as the records' own test (compileFilter) does.
 */
function textOf(field: LogFieldDef): string {
  const col = sqlIdentifier(field.name);
  if (field.storage !== 'derived') return `ifNull(${col}, '')`;
  return `replaceRegexpOne(ifNull(${col}, ''), '^[A-Za-z][A-Za-z0-9+.-]*://', '')`;
}

function fieldCondition(field: LogFieldDef, match: FilterMatch, value: NormalizedFilter[keyof NormalizedFilter]): string | null {
  if (value === null || value === undefined || typeof value === 'boolean') return null;
  const col = sqlIdentifier(field.name);
  if (match === 'status' && typeof value === 'object' && !Array.isArray(value)) {
    // status: codes and classes, ORed
    const { codes, classes } = value as { codes: number[]; classes: number[] };
    const ors = [
      ...(codes.length ? [`${col} IN (${codes.map((c) => sqlLiteral(c)).join(', ')})`] : []),
      ...(classes.length ? [`intDiv(${col}, 100) IN (${classes.map((c) => sqlLiteral(c)).join(', ')})`] : []),
    ];
    return ors.length ? ors.join(' OR ') : null;
  }
  if (Array.isArray(value)) {
    if (match !== 'list' || value.length === 0) return null;
    return `upperUTF8(${textOf(field)}) IN (${value.map((v) => sqlLiteral(String(v).toUpperCase())).join(', ')})`;
  }
  if (typeof value === 'object') return null;
  const text = String(value);
  if (match === 'contains') return `positionCaseInsensitiveUTF8(${textOf(field)}, ${sqlLiteral(text)}) > 0`;
  // one exact value, in any case (a null field matches nothing)
  return `isNotNull(${col}) AND lowerUTF8(${textOf(field)}) = ${sqlLiteral(text.toLowerCase())}`;
}

/**
 * `search`: ANY token in ANY searched field, case-insensitive. The tokens hold no white space,
 * so the fields joined by a newline match exactly as each field alone would.
 */
function searchCondition(tokens: readonly string[]): string | null {
  if (tokens.length === 0) return null;
  const searched = LOG_FIELDS.filter((f) => f.searched);
  const hay = `concat(${searched.map((f) => `${textOf(f)}, '\\n'`).join(', ')})`;
  return tokens.map((t) => `positionCaseInsensitiveUTF8(${hay}, ${sqlLiteral(t)}) > 0`).join(' OR ');
}
