import {
  RATE_LIMIT_TIMEFRAME,
  UNMATCHED_PATH_ACTION,
  WAF_EXECUTION_MODE,
  WAF_PAYLOAD_LIMIT_ACTION,
  type ApiGuardian,
  type ApiGuardianEndpoint,
} from '../api/shield';
import { cellText, type Column } from '../text/table-model';
import type { FieldRow } from './field-rows';
import { enumName, isoUtc } from './format';
import { formatDateText } from '../text/time-format';

/** The configuration as FIELD/VALUE rows (enum names, not numbers), then one row per endpoint. */
export function apiGuardianRows(g: ApiGuardian): FieldRow[] {
  const c = g.configuration;
  const rows: FieldRow[] = [
    { field: 'shield zone', value: String(c.shieldZoneId), raw: c.shieldZoneId },
    { field: 'enabled', value: c.isEnabled ? 'on' : 'off', raw: c.isEnabled ?? null },
    { field: 'execution mode', value: enumName(WAF_EXECUTION_MODE, c.executionMode) },
    { field: 'body limit action', value: enumName(WAF_PAYLOAD_LIMIT_ACTION, c.bodyLimitAction) },
    { field: 'unmatched path action', value: enumName(UNMATCHED_PATH_ACTION, c.unmatchedPathAction) },
    { field: 'spec title', value: c.title ?? '(no specification uploaded)' },
    { field: 'spec version', value: c.version ?? '' },
    { field: 'max endpoints', value: String(c.maxEndpoints), raw: c.maxEndpoints },
    { field: 'max fields per type', value: String(c.maxFieldsPerType), raw: c.maxFieldsPerType },
    { field: 'max nesting depth', value: String(c.maxNestingDepth), raw: c.maxNestingDepth },
    { field: 'max total schema nodes', value: String(c.maxTotalSchemaNodes), raw: c.maxTotalSchemaNodes },
    { field: 'max total regex length', value: String(c.maxTotalRegexLength), raw: c.maxTotalRegexLength },
    { field: 'created', value: formatDateText(c.createdAt, 'dateTime'), raw: isoUtc(c.createdAt) },
    { field: 'updated', value: formatDateText(c.updatedAt, 'dateTime'), raw: isoUtc(c.updatedAt) },
    { field: 'endpoints', value: String(g.endpoints.length), raw: g.endpoints.length },
  ];
  // one row per endpoint: the console's cells (on, validates, rate limit) after its method and path
  const cells = endpointColumns.filter((c) => c.id !== 'method' && c.id !== 'path');
  for (const e of g.endpoints) {
    rows.push({
      field: `  ${e.requestMethod ?? '?'} ${e.requestPath ?? '?'}`,
      value: cells.map((c) => (c.id === 'on' ? '' : `${c.header.toLowerCase()} `) + cellText(c.cell(e))).join(' · '),
    });
  }
  return rows;
}

const yes = (v: boolean | null | undefined, word: string) => (v ? word : '');

/** What an endpoint validates: req (request body), resp (response body), auth; '-' for nothing. */
export function validatesText(e: ApiGuardianEndpoint): string {
  return (
    [yes(e.validateRequestBodySchema, 'req'), yes(e.validateResponseBodySchema, 'resp'), yes(e.validateAuthorization, 'auth')].filter(Boolean).join(' ') || '-'
  );
}

export function rateLimitText(e: ApiGuardianEndpoint): string {
  if (!e.rateLimitingEnabled) return 'off';
  const per =
    e.rateLimitingTimeframe !== null && e.rateLimitingTimeframe !== undefined
      ? (RATE_LIMIT_TIMEFRAME[e.rateLimitingTimeframe] ?? `per ${e.rateLimitingTimeframe}s`)
      : '';
  const who = e.rateLimitingType === 'IP' ? ' per IP' : '';
  return `${e.rateLimitingRequestCount ?? '?'} ${per}${who}`.trim();
}

/** The endpoints' columns: the console's table, and the value of `burrow get api-guardian`'s endpoint rows. */
export const endpointColumns: Column<ApiGuardianEndpoint>[] = [
  { id: 'method', header: 'METHOD', width: 7, cell: (e) => e.requestMethod ?? '' },
  { id: 'path', header: 'PATH', flex: 2, cell: (e) => e.requestPath ?? '' },
  { id: 'on', header: 'ON', width: 3, cell: (e) => (e.isEnabled ? { text: 'on', tone: 'ok' } : { text: 'off', tone: 'warn' }) },
  { id: 'validate', header: 'VALIDATES', width: 14, cell: (e) => validatesText(e) },
  { id: 'rate', header: 'RATE LIMIT', flex: 1, cell: (e) => rateLimitText(e) },
];
