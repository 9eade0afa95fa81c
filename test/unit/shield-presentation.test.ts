import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ApiGuardian, ApiGuardianConfiguration, ApiGuardianEndpoint, ShieldZone } from '../../src/api/shield';
import { cellText, cellTone } from '../../src/text/table-model';
import {
  cycleField,
  describePatch,
  effectiveValue,
  ENUM_NAMES,
  nextEnumValue,
  patchBefore,
  pendingPatch,
  toggleEnabled,
  valueName,
  type EnumField,
} from '../../src/state/shield-draft';
import { hasSpec } from '../../src/state/shield-store';
import { learningText, pageText, zoneColumns } from '../../src/renderers/shield-zones';
import { enumName } from '../../src/renderers/format';
import { limitCheckCells, limitsText, rateLimitText, settingRows, specSummary, specVerdict, endpointColumns } from '../../src/screens/shield/guardian-view';
import { checkSpecText } from '../../src/shield-spec/index';
import { checkJson, checkTable } from '../../src/commands/shield-check-output';
import { apiGuardianRows } from '../../src/renderers/api-guardian';

const config = (over: Partial<ApiGuardianConfiguration> = {}): ApiGuardianConfiguration => ({
  shieldZoneId: 18229,
  isEnabled: false,
  executionMode: 1,
  bodyLimitAction: 2,
  unmatchedPathAction: 0,
  title: 'Catalog API',
  version: '1.2',
  maxEndpoints: 50,
  maxFieldsPerType: 50,
  maxNestingDepth: 8,
  maxTotalSchemaNodes: 1000,
  maxTotalRegexLength: 2000,
  createdAt: '2025-01-02T03:04:05Z',
  updatedAt: null,
  ...over,
});
const ENUMS: EnumField[] = ['executionMode', 'bodyLimitAction', 'unmatchedPathAction'];

test('zone columns: ids, plan and enums by name, WAF on/off with a tone, learning window', () => {
  const z: ShieldZone = {
    shieldZoneId: 18229,
    pullZoneId: 1297,
    planType: 0,
    wafEnabled: false,
    wafExecutionMode: 1,
    wafRequestBodyLimitAction: 2,
    dDoSShieldSensitivity: 4,
    learningMode: true,
    learningModeUntil: '2026-11-27T10:00:00Z',
  };
  const cells = Object.fromEntries(zoneColumns.map((c) => [c.id, c.cell(z)]));
  assert.deepEqual(Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, cellText(v)])), {
    id: '18229',
    pz: '1297',
    plan: 'Basic',
    waf: 'off',
    mode: 'Block',
    body: 'Ignore',
    ddos: 'Challenge',
    learning: 'until 2026-11-27',
  });
  assert.equal(cellTone(cells.plan), 'muted', 'Basic has no API Guardian: muted');
  assert.equal(cellTone(cells.waf), 'warn');
  assert.equal(enumName({ 0: 'Log' }, 7), 'unknown (7)');
  assert.equal(enumName({ 0: 'Log' }, null), '');
  assert.equal(learningText({ learningMode: false, learningModeUntil: null }), 'no');
  assert.equal(learningText({ learningMode: true, learningModeUntil: null }), 'yes');
  assert.equal(pageText({ totalCount: 21, totalPages: 3, currentPage: 2, nextPage: 3, pageSize: 10 }), 'page 2 of 3 · 21 zones');
  assert.equal(pageText({ totalCount: 0, totalPages: 0, currentPage: 1, nextPage: null, pageSize: 10 }), 'page 1 of 1 · 0 zones');
});

test('settings rows: names not numbers; an edit shows the server value next to it', () => {
  const c = config();
  assert.deepEqual(
    settingRows(c, {}).map((r) => [r.label, r.value, r.serverValue]),
    [
      ['Enabled', 'off', null],
      ['Execution mode', 'Block', null],
      ['Body over limit', 'Ignore', null],
      ['Unmatched path', 'Block', null],
    ],
  );
  const edited = settingRows(c, { isEnabled: true, bodyLimitAction: 1 });
  assert.deepEqual(
    edited.map((r) => [r.value, r.serverValue, r.tone]),
    [
      ['on', 'off', 'ok'],
      ['Block', null, 'ok'],
      ['Log', 'Ignore', undefined],
      ['Block', null, undefined],
    ],
  );
  assert.equal(settingRows(c, { executionMode: 1 })[1]!.serverValue, null, 'an edit equal to the server is no edit');
});

test('draft: toggle and cycle in enum order, back to the start means nothing to send', () => {
  const c = config();
  assert.deepEqual(toggleEnabled(c, {}), { isEnabled: true });
  assert.deepEqual(toggleEnabled(c, { isEnabled: true }), {});
  assert.deepEqual(cycleField(c, {}, 'bodyLimitAction'), { bodyLimitAction: 0 }, 'Ignore wraps to Block');
  assert.equal(nextEnumValue(ENUM_NAMES.executionMode, 0), 1);
  assert.equal(nextEnumValue(ENUM_NAMES.executionMode, 1), 0);
  assert.equal(nextEnumValue(ENUM_NAMES.unmatchedPathAction, 9), 0, 'an unknown value goes to the first');
  assert.deepEqual(patchBefore(c, { executionMode: 0, isEnabled: true }), { isEnabled: false, executionMode: 1 });
  assert.equal(describePatch({ executionMode: 0, isEnabled: true }), 'isEnabled on, executionMode Log');
  assert.equal(valueName('unmatchedPathAction', 5), 'unknown (5)');
});

test('draft properties: the pending patch holds only real changes; cycling a field through all its values sends nothing', () => {
  const cfg = fc.record({
    isEnabled: fc.boolean(),
    executionMode: fc.constantFrom(0, 1),
    bodyLimitAction: fc.constantFrom(0, 1, 2),
    unmatchedPathAction: fc.constantFrom(0, 1, 2),
  });
  const step = fc.oneof(fc.constant('toggle' as const), fc.constantFrom(...ENUMS));
  fc.assert(
    fc.property(cfg, fc.array(step, { maxLength: 12 }), (c, steps) => {
      let d = {};
      for (const s of steps) d = s === 'toggle' ? toggleEnabled(c, d) : cycleField(c, d, s);
      const patch = pendingPatch(c, d);
      assert.deepEqual(patch, d, 'the draft is always normalised');
      for (const [k, v] of Object.entries(patch)) assert.notEqual(v, c[k as keyof typeof c]);
      // what is shown is what would be sent
      for (const f of ENUMS) assert.equal(effectiveValue(c, d, f), (patch as Record<string, number>)[f] ?? c[f]);
      let again = d;
      for (const f of ENUMS) for (let i = 0; i < Object.keys(ENUM_NAMES[f]).length; i++) again = cycleField(c, again, f);
      assert.deepEqual(again, d, 'a full cycle of every enum changes nothing');
    }),
  );
});

const endpoint = (over: Partial<ApiGuardianEndpoint> = {}): ApiGuardianEndpoint => ({
  apiGuardianEndpointId: 1,
  requestMethod: 'GET',
  requestPath: '/pets',
  isEnabled: true,
  ...over,
});

test('spec summary, limits line, endpoints: counts and words', () => {
  const g = (title: string | null, n: number): ApiGuardian => ({
    configuration: config({ title, version: title ? '2.0' : null }),
    endpoints: Array.from({ length: n }, () => endpoint()),
  });
  assert.equal(specSummary(g('Petstore', 5)), 'Petstore 2.0 · 5 endpoints');
  assert.equal(specSummary(g('One', 1)), 'One 2.0 · 1 endpoint');
  assert.match(specSummary(g(null, 0)), /^none uploaded/);
  assert.equal(hasSpec(g(null, 0)), false);
  assert.equal(hasSpec(g('Petstore', 0)), true);
  assert.equal(limitsText(config()), 'endpoints 50 · fields 50 · depth 8 · nodes 1000 · regex 2000');
  assert.equal(
    rateLimitText(endpoint({ rateLimitingEnabled: true, rateLimitingRequestCount: 100, rateLimitingTimeframe: 60, rateLimitingType: 'IP' })),
    '100 per minute per IP',
  );
  assert.equal(rateLimitText(endpoint({ rateLimitingEnabled: true, rateLimitingRequestCount: 5, rateLimitingTimeframe: 7 })), '5 per 7s');
  assert.equal(rateLimitText(endpoint()), 'off');
  const validates = endpointColumns.find((c) => c.id === 'validate')!;
  assert.equal(cellText(validates.cell(endpoint({ validateRequestBodySchema: true, validateAuthorization: true }))), 'req auth');
  assert.equal(cellText(validates.cell(endpoint())), '-');
});

test('burrow get api-guardian and the console read an endpoint from the same cells (VALIDATES: req auth, not auth, body)', () => {
  const e = endpoint({
    requestMethod: 'GET',
    requestPath: '/pets',
    isEnabled: true,
    validateRequestBodySchema: true,
    validateAuthorization: true,
    rateLimitingEnabled: true,
    rateLimitingRequestCount: 100,
    rateLimitingTimeframe: 60,
  });
  const rows = apiGuardianRows({ configuration: config({ title: 'Petstore', version: '1' }), endpoints: [e] });
  const row = rows.find((r) => r.field.trim() === 'GET /pets')!;
  const console = endpointColumns.filter((c) => c.id !== 'method' && c.id !== 'path').map((c) => cellText(c.cell(e)));
  assert.deepEqual(console, ['on', 'req auth', '100 per minute']);
  assert.equal(row.value, 'on · validates req auth · rate limit 100 per minute');
});

test('measured vs allowed: over-limit rows are red and say OVER; the verdict names the limits', () => {
  const text = JSON.stringify({
    openapi: '3.0.0',
    info: { title: 'T', version: '1' },
    paths: { '/a': { get: {}, put: {}, post: {} } },
    components: { schemas: { A: { properties: { b: { pattern: 'abcd' } } } } },
  });
  const check = checkSpecText(text, { ...config(), maxEndpoints: 2, maxTotalRegexLength: 3 });
  const rows = check.checks.map(limitCheckCells);
  assert.deepEqual(
    rows.map((r) => [r.label, r.measured, r.allowed, r.status, r.tone]),
    [
      ['endpoints', '3', '2', 'OVER', 'error'],
      ['fields per schema', '1', '50', 'ok', undefined],
      ['nesting depth', '1', '8', 'ok', undefined],
      ['schema nodes', '2', '1000', 'ok', undefined],
      ['regex length', '4', '3', 'OVER', 'error'],
    ],
  );
  assert.deepEqual(specVerdict(check, false), {
    text: 'over 2 limits (endpoints, regex length): the zone would refuse it; fix the file (F sends anyway)',
    tone: 'error',
  });
  const fine = checkSpecText(text, config());
  assert.deepEqual(specVerdict(fine, false), { text: 'within the plan limits: c to upload it (POST)', tone: 'ok' });
  assert.match(specVerdict(fine, true).text, /replace the zone's spec \(PATCH\)/);

  // check-spec prints the same measures as a table and as JSON
  const table = checkTable(check).split('\n');
  assert.match(table[0]!, /^LIMIT\s+MEASURED\s+ALLOWED\s+STATUS\s+WHERE$/);
  assert.match(table[1]!, /^endpoints\s+3\s+2\s+OVER$/);
  // the CLI's table and the console's spec panel: the same cells, row by row
  const cliRows = table.slice(1).filter((l) => l.trim() !== '');
  rows.forEach((r, i) => assert.match(cliRows[i]!, new RegExp(`^${[r.label, r.measured, r.allowed, r.status, r.where].filter(Boolean).join('\\s+')}\\s*$`)));
  const json = checkJson(check, '/x.json', 7) as { withinLimits: boolean; problems: string[]; checks: { measured: number | null }[] };
  assert.equal(json.withinLimits, false);
  assert.deepEqual(json.problems, [
    'endpoints: 3 endpoints (path + method); the plan allows 2 (maxEndpoints)',
    'regex length: 4 characters of "pattern" regexes; the plan allows 3 (maxTotalRegexLength)',
  ]);
  const cyclic = checkSpecText(
    JSON.stringify({
      openapi: '3.0.0',
      info: { title: 'T', version: '1' },
      paths: {},
      components: { schemas: { A: { items: { $ref: '#/components/schemas/A' } } } },
    }),
    config(),
  );
  const depth = (checkJson(cyclic, '/x', 1) as { checks: { measured: number | null; measuredText: string }[] }).checks[2]!;
  assert.deepEqual([depth.measured, depth.measuredText], [null, 'unbounded']);
});
