import type { FieldError } from '../api/errors';
import { CACHE_STATUS_VALUES, MAX_SEARCH_TOKENS, MAX_TOKEN_LENGTH, normalizeFilter, type LogFilter } from '../api/logs/query';
import { textOf, type TextState } from '../keys/text-edit';

/** The server-side filters as a small form: one text field each, checked by the client before sending. */
export const FILTER_FIELDS = [
  { id: 'status', label: 'status', hint: 'codes and classes, ORed: 5xx,404' },
  { id: 'cacheStatus', label: 'cache status', hint: CACHE_STATUS_VALUES.join(',') },
  { id: 'country', label: 'country', hint: 'ISO codes: DE,FR' },
  { id: 'edgeLocation', label: 'edge', hint: 'edge location code, e.g. DE' },
  { id: 'remoteIp', label: 'remote IP', hint: 'one IPv4 or IPv6 address' },
  { id: 'urlContains', label: 'URL contains', hint: 'host + path, any case' },
  { id: 'userAgentContains', label: 'UA contains', hint: 'user agent, any case' },
  { id: 'refererContains', label: 'referer contains', hint: 'referer, any case' },
  { id: 'search', label: 'search', hint: `any of up to ${MAX_SEARCH_TOKENS} tokens (${MAX_TOKEN_LENGTH} chars each)` },
] as const;

export type FilterFieldId = (typeof FILTER_FIELDS)[number]['id'];
export type FilterDraft = Record<FilterFieldId, string>;

export interface FilterForm {
  fields: Record<FilterFieldId, TextState>;
  focus: number;
  errors: Partial<Record<FilterFieldId, string>>;
}

export function emptyDraft(): FilterDraft {
  return Object.fromEntries(FILTER_FIELDS.map((f) => [f.id, ''])) as FilterDraft;
}

export function formFromDraft(draft: FilterDraft): FilterForm {
  return { fields: Object.fromEntries(FILTER_FIELDS.map((f) => [f.id, textOf(draft[f.id])])) as Record<FilterFieldId, TextState>, focus: 0, errors: {} };
}

export function draftOfForm(form: FilterForm): FilterDraft {
  return Object.fromEntries(FILTER_FIELDS.map((f) => [f.id, form.fields[f.id].value.trim()])) as FilterDraft;
}

/** The draft as the query's LogFilter (empty fields left out). */
export function filterOfDraft(draft: FilterDraft): LogFilter {
  const out: LogFilter = {};
  for (const f of FILTER_FIELDS) {
    const v = draft[f.id].trim();
    if (v !== '') out[f.id] = v;
  }
  return out;
}

/** The client's own validation of the filters: messages per field, or null when they can be sent. */
export function validateDraft(draft: FilterDraft): Partial<Record<FilterFieldId, string>> | null {
  const errors: FieldError[] = [];
  normalizeFilter(filterOfDraft(draft), errors, false);
  if (!errors.length) return null;
  const out: Partial<Record<FilterFieldId, string>> = {};
  for (const e of errors) {
    const id = (FILTER_FIELDS.find((f) => f.id === e.field)?.id ?? 'search') as FilterFieldId;
    out[id] = out[id] ? `${out[id]}; ${e.message}` : e.message;
  }
  return out;
}

/** "status=5xx cache=MISS ..." for the title line; "" when there is no filter. */
export function describeDraft(draft: FilterDraft): string {
  const short: Record<FilterFieldId, string> = {
    status: 'status', cacheStatus: 'cache', country: 'cc', edgeLocation: 'edge', remoteIp: 'ip', urlContains: 'url~',
    userAgentContains: 'ua~', refererContains: 'ref~', search: 'search',
  };
  return FILTER_FIELDS.filter((f) => draft[f.id].trim() !== '').map((f) => `${short[f.id]}=${draft[f.id].trim()}`).join(' ');
}
