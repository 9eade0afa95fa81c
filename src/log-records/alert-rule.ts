import type { FieldError } from '../api/errors';
import type { LogEntry } from '../api/logs/entry';
import { compileFilter, normalizeFilter, type LogFilter } from '../api/logs/query';
import { compilePattern, urlText } from './filter';
import { fieldGetter, LOG_FIELDS } from '../log-fields/fields';

/**
 * The alert rule language: conditions on records, joined by `and`, then a threshold over a window.
 *
 *   status=5xx rate>2/s over 60s
 *   cache=MISS and country=DE count>500 over 5m
 *   path~^/api rate>=10/s over 30s
 *
 * Conditions use the filter vocabulary of `burrow logs` and the logs screen's filter form, with
 * the same meaning: `status=5xx,404` (codes and classes, ORed), `cache=MISS,HIT`, `country=DE,FR`,
 * `edge=WA`, `ip=ADDRESS`, `url=`/`ua=`/`referer=` (case-insensitive substrings; url is host +
 * path), `path=` (substring of the path), `search=` (any of the tokens, as --search). `~` takes a
 * regular expression instead (smart case, as the local pattern): `url~`, `path~`, `ua~`,
 * `referer~`. `!=` and `!~` negate. A value with spaces goes in double quotes. No condition at all
 * means every record.
 *
 * The threshold is `rate>N/s` (also /m, /h) or `count>N`, with `>` or `>=`; the window is
 * `over D` with D from 1s to 24h (s, m, h). A rate is the count over the window divided by its
 * length: `rate>2/s over 60s` is `count>120 over 60s`, and says so in the observed rate.
 */

export type Comparison = '>' | '>=';
export type RateUnit = 's' | 'm' | 'h';

/** The longest value of one condition (a pattern or a substring) and the longest rule taken. */
export const MAX_RULE_VALUE_LENGTH = 1_000;
export const MAX_RULE_LENGTH = 4_000;

export interface AlertCondition {
  field: string;
  op: '=' | '~' | '!=' | '!~';
  value: string;
}

export interface AlertRule {
  /** The rule as typed, spaces tidied: how it is shown and named. */
  text: string;
  conditions: AlertCondition[];
  test: (e: LogEntry) => boolean;
  measure: 'rate' | 'count';
  comparison: Comparison;
  /** The number typed: per `unit` for a rate, records for a count. */
  threshold: number;
  unit: RateUnit;
  windowMs: number;
  /** The window as written: "60s", "5m". */
  windowText: string;
  /** The threshold as a number of records in the window. */
  countThreshold: number;
}

export interface RuleError {
  message: string;
  /** The bad token: [start, end) in the text as given. */
  start: number;
  end: number;
}

export type ParsedRule = { ok: true; rule: AlertRule } | { ok: false; error: RuleError };

export const MAX_WINDOW_MS = 24 * 3_600_000;
const UNIT_MS: Record<RateUnit, number> = { s: 1000, m: 60_000, h: 3_600_000 };

type KeyedField = Extract<(typeof LOG_FIELDS)[number], { filterKey: string }>;
/** How `key=value` is tested: by the LogFilter key it sets, or as a substring of a field's text (any case). */
type EqualTest = { param: keyof LogFilter } | { text: (e: LogEntry) => string | null };
/**
 * Equality fields (each field's filterKey in the field table) and how each is tested: by its
 * serverFilter, or here for one the server does not filter (path); then `search`.
 */
const EQUAL_FIELDS: Record<string, EqualTest> = {
  ...Object.fromEntries(
    LOG_FIELDS.filter((f): f is KeyedField => f.filterKey !== null).map((f): [string, EqualTest] => [
      f.filterKey,
      f.serverFilter ? { param: f.serverFilter.param } : { text: fieldGetter(f.name) as (e: LogEntry) => string | null },
    ]),
  ),
  search: { param: 'search' },
};
/**
 * Fields a regular expression (`~`) can test: the keyed ones the server filters by substring,
 * and those it does not filter at all (path); the url is host + path when the record has both.
 */
const REGEX_FIELDS: Record<string, (e: LogEntry) => string | null> = Object.fromEntries(
  LOG_FIELDS.filter((f): f is KeyedField => f.filterKey !== null && (f.serverFilter === null || f.serverFilter.match === 'contains'))
    // the url first, as the messages list them
    .sort((a, b) => (a.storage === 'derived' ? -1 : b.storage === 'derived' ? 1 : 0))
    .map((f) => {
      const text = f.storage === 'derived' ? urlText : (fieldGetter(f.name) as (e: LogEntry) => string | null);
      return [f.filterKey, text];
    }),
);
const REGEX_LIST = Object.keys(REGEX_FIELDS).join(', ');
const FIELD_LIST = Object.keys(EQUAL_FIELDS).join(', ');

const EXAMPLES = 'examples: status=5xx rate>2/s over 60s · cache=MISS and country=DE count>500 over 5m';

interface Token {
  text: string;
  start: number;
  end: number;
  quoted: boolean;
}

/** Words separated by spaces; a double-quoted part (with \" inside) belongs to its word. */
function tokenize(text: string): Token[] | RuleError {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const start = i;
    let value = '';
    let quoted = false;
    while (i < text.length && !/\s/.test(text[i]!)) {
      if (text[i] === '"') {
        const open = i;
        quoted = true;
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\' && text[i + 1] === '"') i++;
          value += text[i++];
        }
        if (i >= text.length) return { message: 'this quote is not closed', start: open, end: text.length };
        i++;
      } else value += text[i++];
    }
    out.push({ text: value, start, end: i, quoted });
  }
  return out;
}

const CONDITION = /^([a-zA-Z]+)(!=|!~|=|~)([\s\S]*)$/;
const THRESHOLD = /^(rate|count)(>=|>|<=|<|=)([\s\S]*)$/i;

function err(message: string, t: { start: number; end: number }): { ok: false; error: RuleError } {
  return { ok: false, error: { message, start: t.start, end: t.end } };
}

function parseCondition(tok: Token): { ok: true; condition: AlertCondition; test: (e: LogEntry) => boolean } | { ok: false; error: RuleError } {
  const m = CONDITION.exec(tok.text);
  if (!m) {
    if (/^[a-zA-Z]+$/.test(tok.text)) {
      return err(`"${tok.text}" is not a condition: write field=value with no spaces (status=5xx), then a threshold such as rate>2/s over 60s`, tok);
    }
    return err(`"${tok.text}" is not a condition (field=value or field~regex) or a threshold (rate>N/s, count>N); ${EXAMPLES}`, tok);
  }
  const field = m[1]!.toLowerCase();
  const op = m[2] as AlertCondition['op'];
  const value = m[3]!;
  const fieldSpan = { start: tok.start, end: tok.start + m[1]!.length };
  // the value's place in the text (after a quote when it is quoted)
  const valueSpan = { start: fieldSpan.end + op.length, end: tok.end };
  if (value.trim() === '') return err(`${field}${op} needs a value`, tok);
  if (value.length > MAX_RULE_VALUE_LENGTH) {
    return err(
      `${field}${op}: a value is at most ${MAX_RULE_VALUE_LENGTH.toLocaleString('en-US')} characters, this one has ${value.length.toLocaleString('en-US')}`,
      valueSpan,
    );
  }
  const negate = op.startsWith('!');
  let test: (e: LogEntry) => boolean;
  if (op === '~' || op === '!~') {
    const of = REGEX_FIELDS[field];
    if (!of) {
      const why = EQUAL_FIELDS[field] ? `${field} takes = (a regular expression works on ${REGEX_LIST})` : `"${field}" is not a field (${FIELD_LIST})`;
      return err(why, fieldSpan);
    }
    const p = compilePattern(value);
    if (!p.ok) return err(p.message, valueSpan);
    const re = p.test;
    test = (e) => {
      const s = of(e);
      return s !== null && re.test(s);
    };
  } else {
    const how = EQUAL_FIELDS[field];
    if (!how) return err(`"${field}" is not a field (${FIELD_LIST})`, fieldSpan);
    if ('text' in how) {
      const needle = value.toLowerCase();
      const text = how.text;
      test = (e) => {
        const s = text(e);
        return s !== null && s.toLowerCase().includes(needle);
      };
    } else {
      const filter: LogFilter = { [how.param]: value };
      const errors: FieldError[] = [];
      const normalized = normalizeFilter(filter, errors, false);
      if (errors.length) return err(errors.map((x) => x.message).join('; '), valueSpan);
      test = compileFilter(normalized);
    }
  }
  return { ok: true, condition: { field, op, value }, test: negate ? (e) => !test(e) : test };
}

/** "60s" / "5m" / "1h" -> ms, or a message. */
export function parseWindow(text: string): number | string {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)$/.exec(text);
  if (!m) return `"${text}" is not a window: use a duration such as 30s, 5m or 1h`;
  const ms = Math.round(Number(m[1]) * UNIT_MS[m[2] as RateUnit]);
  if (ms < 1000 || ms > MAX_WINDOW_MS) return `the window is from 1s to 24h, got ${text}`;
  return ms;
}

function parseThreshold(
  tok: Token,
): { ok: true; measure: 'rate' | 'count'; comparison: Comparison; threshold: number; unit: RateUnit } | { ok: false; error: RuleError } {
  const m = THRESHOLD.exec(tok.text)!;
  const measure = m[1]!.toLowerCase() as 'rate' | 'count';
  const cmp = m[2]!;
  if (cmp !== '>' && cmp !== '>=') {
    return err(`${measure}${cmp}: only > and >= are supported (an alert fires when the ${measure} goes above its threshold)`, tok);
  }
  const rest = m[3]!;
  if (measure === 'count') {
    if (!/^\d+$/.test(rest)) return err(`count${cmp} needs a whole number of records, like count>500`, tok);
    return { ok: true, measure, comparison: cmp, threshold: Number(rest), unit: 's' };
  }
  const r = /^(\d+(?:\.\d+)?)\/(s|m|h|sec|min)$/.exec(rest);
  if (!r) return err(`rate${cmp} needs a number per second, minute or hour, like rate>2/s, rate>30/m or rate>500/h`, tok);
  const unit = ({ sec: 's', min: 'm' } as Record<string, RateUnit>)[r[2]!] ?? (r[2] as RateUnit);
  return { ok: true, measure, comparison: cmp, threshold: Number(r[1]), unit };
}

/** Parses a rule; a mistake comes back with a message and the position of the bad token. */
export function parseAlertRule(text: string): ParsedRule {
  const tokens = tokenize(text);
  if (!Array.isArray(tokens)) return { ok: false, error: tokens };
  if (tokens.length === 0) return err(`an empty rule; ${EXAMPLES}`, { start: 0, end: 0 });
  const conditions: AlertCondition[] = [];
  const tests: ((e: LogEntry) => boolean)[] = [];
  let i = 0;
  // conditions, joined by "and", up to the threshold
  for (;;) {
    const tok = tokens[i];
    if (!tok) return err(`missing the threshold and window after the conditions, like rate>2/s over 60s`, { start: text.length, end: text.length });
    if (!tok.quoted && THRESHOLD.test(tok.text)) break;
    if (conditions.length > 0) {
      if (tok.text.toLowerCase() !== 'and') return err(`expected "and" or a threshold (rate>N/s, count>N) here, got "${tok.text}"`, tok);
      i++;
      const next = tokens[i];
      if (!next) return err('"and" needs a condition after it', tok);
      if (THRESHOLD.test(next.text)) return err('"and" needs a condition after it, not the threshold', next);
    }
    const c = parseCondition(tokens[i]!);
    if (!c.ok) return c;
    conditions.push(c.condition);
    tests.push(c.test);
    i++;
  }
  // each value was held to its own limit above (a long one is pointed at); then the whole
  if (text.length > MAX_RULE_LENGTH) {
    return err(`a rule is at most ${MAX_RULE_LENGTH.toLocaleString('en-US')} characters, this one has ${text.length.toLocaleString('en-US')}`, {
      start: MAX_RULE_LENGTH,
      end: text.length,
    });
  }
  const thresholdTok = tokens[i]!;
  const th = parseThreshold(thresholdTok);
  if (!th.ok) return th;
  i++;
  const over = tokens[i];
  if (!over) return err('missing the window: add "over 60s" (or 5m, 1h)', { start: text.length, end: text.length });
  if (over.text.toLowerCase() !== 'over') return err(`expected "over" and a window (over 60s), got "${over.text}"`, over);
  const windowTok = tokens[i + 1];
  if (!windowTok) return err('"over" needs a window such as 60s, 5m or 1h', { start: text.length, end: text.length });
  const windowMs = parseWindow(windowTok.text);
  if (typeof windowMs === 'string') return err(windowMs, windowTok);
  const extra = tokens[i + 2];
  if (extra) return err(`unexpected "${extra.text}" after the window (one rule per line; conditions go before the threshold)`, extra);
  const countThreshold = th.measure === 'count' ? th.threshold : (th.threshold * windowMs) / UNIT_MS[th.unit];
  const all = tests.length === 0 ? () => true : tests.length === 1 ? tests[0]! : (e: LogEntry) => tests.every((t) => t(e));
  return {
    ok: true,
    rule: {
      text: tokens.map((t) => text.slice(t.start, t.end)).join(' '),
      conditions,
      test: all,
      measure: th.measure,
      comparison: th.comparison,
      threshold: th.threshold,
      unit: th.unit,
      windowMs,
      windowText: windowTok.text,
      countThreshold,
    },
  };
}

/** A rule longer than this is shown around its bad part only (a 45,000-character value is not echoed). */
const SHOWN_RULE = 160;
const SHOWN_BAD = 60;
const SHOWN_AROUND = 40;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The message, then the rule with the bad part underlined (each line after the first indented by `indent`). For the CLI. */
export function describeRuleError(text: string, error: RuleError, indent = '  '): string {
  if (text.length <= SHOWN_RULE) {
    const width = Math.max(1, error.end - error.start);
    return `${error.message}\n${indent}${text}\n${indent}${' '.repeat(error.start)}${'^'.repeat(width)}`;
  }
  const from = Math.max(0, error.start - SHOWN_AROUND);
  const head = `${from > 0 ? '…' : ''}${text.slice(from, error.start)}`;
  const bad = clip(text.slice(error.start, error.end), SHOWN_BAD);
  const tail = clip(text.slice(error.end), SHOWN_AROUND);
  return `${error.message}\n${indent}${head}${bad}${tail}\n${indent}${' '.repeat(head.length)}${'^'.repeat(Math.max(1, bad.length))}`;
}

/** The error on one line, naming the bad token, cut if long (for a field's status line). */
export function ruleErrorLine(text: string, error: RuleError): string {
  const bad = text.slice(error.start, error.end);
  return bad ? `at "${clip(bad, 24)}" (column ${error.start + 1}): ${error.message}` : error.message;
}

/** What the rule observed in a window of `count` records: "3.4/s" or "512". */
export function observedText(rule: AlertRule, count: number): string {
  if (rule.measure === 'count') return String(count);
  const rate = (count * UNIT_MS[rule.unit]) / rule.windowMs;
  return `${formatNumber(rate)}/${rule.unit}`;
}

function formatNumber(n: number): string {
  if (n === 0) return '0';
  if (n >= 100) return String(Math.round(n));
  if (n >= 10) return n.toFixed(1).replace(/\.0$/, '');
  return n.toFixed(2).replace(/0$/, '').replace(/\.0$/, '');
}

/** 2m 05s, 45s, 1h 02m. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
