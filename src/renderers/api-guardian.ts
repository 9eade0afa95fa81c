import { UNMATCHED_PATH_ACTION, WAF_EXECUTION_MODE, WAF_PAYLOAD_LIMIT_ACTION, type ApiGuardian } from '../api/shield';
import type { FieldRow } from './field-rows';
import { enumName, isoUtc, yesNo } from './format';
import { formatDateText } from '../text/time-format';

/** The configuration as FIELD/VALUE rows (enum names, not numbers), then one row per endpoint. */
export function apiGuardianRows(g: ApiGuardian): FieldRow[] {
  const c = g.configuration;
  const rows: FieldRow[] = [
    { field: 'shield zone', value: String(c.shieldZoneId), raw: c.shieldZoneId },
    { field: 'enabled', value: yesNo(c.isEnabled), raw: c.isEnabled ?? null },
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
  for (const e of g.endpoints) {
    const flags = [e.isEnabled === false ? 'disabled' : null, e.validateAuthorization ? 'auth' : null, e.validateRequestBodySchema ? 'body' : null, e.rateLimitingEnabled ? 'rate-limited' : null].filter(Boolean);
    rows.push({ field: `  ${e.requestMethod ?? '?'} ${e.requestPath ?? '?'}`, value: flags.join(', ') });
  }
  return rows;
}
