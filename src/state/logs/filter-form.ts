import type { FieldError } from '../../api/errors';
import { FILTERED_FIELDS, type FilteredField } from '../../log-fields/fields';
import { MAX_SEARCH_TOKENS, MAX_TOKEN_LENGTH, normalizeFilter, type LogFilter, RETENTION_MS } from '../../api/logs/query';
import { textOf, type TextState } from '../../keys/text-edit';
import { displayZone, formatTime, zoneLabel } from '../../text/time-format';
import { parseTimeInput } from '../../text/time-parse';

type FormField = Extract<FilteredField, { serverFilter: { form: object } }>;

/**
 * The server-side filters as a small form: one text field each, checked by the client before
 * sending. The fields' filters come from the field table (its serverFilter.form), in its order.
 */
export const FILTER_FIELDS = [
  ...FILTERED_FIELDS.filter((f): f is FormField => f.serverFilter.form !== null).map(({ serverFilter: { param, form } }) => ({ id: param, ...form })),
  { id: 'search', label: 'search', hint: `any of up to ${MAX_SEARCH_TOKENS} tokens (${MAX_TOKEN_LENGTH} chars each)`, short: 'search' },
  { id: 'from', label: 'from (time)', hint: 'absolute start: 14:05, 2026-11-24 14:05, -2h (empty: the 1-5 window)', short: 'from' },
  { id: 'to', label: 'to (time)', hint: 'absolute end, needs from (empty: follow up to now)', short: 'to' },
] as const;

/** The form fields that set the time window rather than a server filter. */
const WINDOW_IDS: readonly FilterFieldId[] = ['from', 'to'];

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
    if (f.id === 'from' || f.id === 'to') continue;
    const v = draft[f.id].trim();
    if (v !== '') out[f.id] = v;
  }
  return out;
}

/** The client's own validation of the filters and the window: messages per field, or null when they can be sent. */
export function validateDraft(draft: FilterDraft, now: number, pastRetention = false): Partial<Record<FilterFieldId, string>> | null {
  const errors: FieldError[] = [];
  normalizeFilter(filterOfDraft(draft), errors, false);
  const windowErrors = checkWindow(draft, now, pastRetention).errors;
  if (!errors.length && !windowErrors) return null;
  const out: Partial<Record<FilterFieldId, string>> = { ...windowErrors };
  for (const e of errors) {
    const id = (FILTER_FIELDS.find((f) => f.id === e.field)?.id ?? 'search') as FilterFieldId;
    out[id] = out[id] ? `${out[id]}; ${e.message}` : e.message;
  }
  return out;
}

/** "status=5xx cache=MISS ..." for the title line; "" when there is no filter. */
export function describeDraft(draft: FilterDraft): string {
  return FILTER_FIELDS.filter((f) => !WINDOW_IDS.includes(f.id) && draft[f.id].trim() !== '')
    .map((f) => `${f.short}=${draft[f.id].trim()}`)
    .join(' ');
}

/** An absolute window from the form: epoch ms; `to` null = up to now, following. */
export interface AbsoluteWindow {
  from: number;
  to: number | null;
}

/**
 * The from/to fields as times (typed as `@` takes them, in the display zone), checked: from before
 * to, from within the 3-day retention (or older, `pastRetention`: a log store holds it), to not after
 * now. No from: no absolute window.
 */
export function checkWindow(
  draft: FilterDraft,
  now: number,
  pastRetention = false,
): { window: AbsoluteWindow | null; errors: Partial<Record<FilterFieldId, string>> | null } {
  const errors: Partial<Record<FilterFieldId, string>> = {};
  const fromText = draft.from.trim();
  const toText = draft.to.trim();
  const from = fromText === '' ? null : parseTimeInput(fromText, now, displayZone());
  const to = toText === '' ? null : parseTimeInput(toText, now, displayZone());
  if (from && !from.ok) errors.from = from.message;
  if (to && !to.ok) errors.to = to.message;
  if (to && !from) errors.to = 'an end needs a start: fill in from too';
  if (from?.ok && from.ms < now - RETENTION_MS && !pastRetention)
    errors.from = `${formatTime(from.ms, 'dateTime')} is older than the 3-day retention (the oldest is ${formatTime(now - RETENTION_MS, 'dateTime')}); a log store (BURROW_LOG_STORE) reads older windows`;
  if (from?.ok && from.ms >= now) errors.from = `${formatTime(from.ms, 'dateTime')} is in the future`;
  if (to?.ok && to.ms > now) errors.to = `${formatTime(to.ms, 'dateTime')} is in the future: leave to empty to follow up to now`;
  if (from?.ok && to?.ok && to.ms <= from.ms && !errors.to)
    errors.to = `the end ${formatTime(to.ms, 'dateTime')} is not after the start ${formatTime(from.ms, 'dateTime')}`;
  if (Object.keys(errors).length) return { window: null, errors };
  if (!from?.ok) return { window: null, errors: null };
  // past the retention the window is read from the log store, once: it ends now when no end is given
  const end = to?.ok ? to.ms : from.ms < now - RETENTION_MS ? now : null;
  return { window: { from: from.ms, to: end }, errors: null };
}

/** The draft with from/to written as absolute times (a relative "-2h" is fixed when the form is applied). */
export function pinWindow(draft: FilterDraft, window: AbsoluteWindow | null): FilterDraft {
  if (!window) return { ...draft, from: '', to: '' };
  return { ...draft, from: formatTime(window.from, 'dateTime'), to: window.to === null ? '' : formatTime(window.to, 'dateTime') };
}

/** "from 2026-11-24 14:05:00 to 15:05:00 (UTC-05:00)" for the title line. */
export function describeWindow(window: AbsoluteWindow, now: number): string {
  const from = formatTime(window.from, 'dateTime');
  const to =
    window.to === null ? 'now (following)' : formatTime(window.to, formatTime(window.to, 'day') === formatTime(window.from, 'day') ? 'clock' : 'dateTime');
  return `from ${from} to ${to} (${zoneLabel(window.to ?? now)})`;
}
