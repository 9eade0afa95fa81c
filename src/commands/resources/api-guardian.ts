import { INT32_MAX, enumName } from '../../api/input-checks';
import { UNMATCHED_PATH_ACTION, WAF_EXECUTION_MODE, WAF_PAYLOAD_LIMIT_ACTION, type ApiGuardian } from '../../api/shield';
import { defineResource } from '../get';
import { parseIdArg, yesNo, type FieldRow } from './format';

/** The configuration as FIELD/VALUE rows (enum names, not numbers), then one row per endpoint. */
export function apiGuardianRows(g: ApiGuardian): FieldRow[] {
  const c = g.configuration;
  const rows: FieldRow[] = [
    { field: 'shield zone', value: String(c.shieldZoneId) },
    { field: 'enabled', value: yesNo(c.isEnabled) },
    { field: 'execution mode', value: enumName(WAF_EXECUTION_MODE, c.executionMode) },
    { field: 'body limit action', value: enumName(WAF_PAYLOAD_LIMIT_ACTION, c.bodyLimitAction) },
    { field: 'unmatched path action', value: enumName(UNMATCHED_PATH_ACTION, c.unmatchedPathAction) },
    { field: 'spec title', value: c.title ?? '(no specification uploaded)' },
    { field: 'spec version', value: c.version ?? '' },
    { field: 'max endpoints', value: String(c.maxEndpoints) },
    { field: 'max fields per type', value: String(c.maxFieldsPerType) },
    { field: 'max nesting depth', value: String(c.maxNestingDepth) },
    { field: 'max total schema nodes', value: String(c.maxTotalSchemaNodes) },
    { field: 'max total regex length', value: String(c.maxTotalRegexLength) },
    { field: 'created', value: c.createdAt ?? '' },
    { field: 'updated', value: c.updatedAt ?? '' },
    { field: 'endpoints', value: String(g.endpoints.length) },
  ];
  for (const e of g.endpoints) {
    const flags = [e.isEnabled === false ? 'disabled' : null, e.validateAuthorization ? 'auth' : null, e.validateRequestBodySchema ? 'body' : null, e.rateLimitingEnabled ? 'rate-limited' : null].filter(Boolean);
    rows.push({ field: `  ${e.requestMethod ?? '?'} ${e.requestPath ?? '?'}`, value: flags.join(', ') });
  }
  return rows;
}

export const apiGuardianResource = defineResource<ApiGuardian, FieldRow>({
  name: 'api-guardian',
  arg: 'ID',
  summary: 'API Guardian configuration and endpoints of a shield zone',
  single: true,
  parseArg: (arg) => void parseIdArg('shield zone ID', arg, INT32_MAX),
  async fetch(session, arg, signal) {
    return [await session.api.shield.getApiGuardian(parseIdArg('shield zone ID', arg ?? '', INT32_MAX), signal)];
  },
  rows: (records) => records.flatMap(apiGuardianRows),
  columns: [
    { header: 'FIELD', value: (r) => r.field },
    { header: 'VALUE', value: (r) => r.value },
  ],
});
