import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { checkId, checkWhole } from '../../src/api/input-checks';
import { checkApiGuardianPatch, WAF_EXECUTION_MODE, type ApiGuardian } from '../../src/api/shield';
import { checkRegionSettingsUpdate } from '../../src/api/containers';
import type { LoadBalancer } from '../../src/api/load-balancers';
import { apiGuardianRows } from '../../src/renderers/api-guardian';
import { regionSettingsRows } from '../../src/renderers/container-regions';
import { enumName, formatBytes, formatDay } from '../../src/renderers/format';
import { originTarget, profileRows } from '../../src/renderers/load-balancers';
import { drmText } from '../../src/renderers/video-libraries';
import { parseIdArg } from '../../src/commands/resources/parse-id';
import { UsageError } from '../../src/commands/types';

const invalid = (fn: () => unknown, message: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input' && message.test(e.message));

test('enum names, and unknown values shown as such', () => {
  assert.equal(enumName(WAF_EXECUTION_MODE, 1), 'Block');
  assert.equal(enumName(WAF_EXECUTION_MODE, 7), 'unknown (7)');
  assert.equal(enumName(WAF_EXECUTION_MODE, null), '');
});

test('input checks say what is allowed', () => {
  assert.equal(checkWhole('perPage', 5, 5, 1000), 5);
  invalid(() => checkWhole('perPage', 4, 5, 1000), /perPage must be a whole number from 5 to 1000 \(got 4\)/);
  invalid(() => checkWhole('page', 1.5, 1, 2147483647), /page must be a whole number from 1 to 2147483647 \(got 1.5\)/);
  assert.equal(checkId('zone', '42'), 42);
  invalid(() => checkId('shield zone id', 2147483648, 2147483647), /positive whole number up to 2147483647/);
  invalid(() => checkId('load balancer id', 'abc'), /load balancer id must be a positive whole number \(got "abc"\)/);
});

test('API Guardian patch: only given fields, enum values and names checked, unknown fields and empty patches refused', () => {
  assert.deepEqual(checkApiGuardianPatch({ executionMode: 1, isEnabled: undefined }), { executionMode: 1 });
  assert.deepEqual(checkApiGuardianPatch({ isEnabled: false, bodyLimitAction: 2, unmatchedPathAction: 0 }), {
    isEnabled: false,
    bodyLimitAction: 2,
    unmatchedPathAction: 0,
  });
  invalid(() => checkApiGuardianPatch({ executionMode: 2 }), /executionMode must be one of 0 \(Log\), 1 \(Block\) \(got 2\)/);
  invalid(() => checkApiGuardianPatch({ bodyLimitAction: 3 }), /0 \(Block\), 1 \(Log\), 2 \(Ignore\)/);
  invalid(() => checkApiGuardianPatch({ title: 'x' } as never), /"title" cannot be changed/);
  invalid(() => checkApiGuardianPatch({}), /nothing to update/);
});

test('region settings update: shapes checked before sending', () => {
  assert.deepEqual(checkRegionSettingsUpdate({ allowedRegionIds: ['DE'], maxAllowedRegions: null }), { allowedRegionIds: ['DE'], maxAllowedRegions: null });
  invalid(() => checkRegionSettingsUpdate({ allowedRegionIds: ['DE', 'DE'] }), /more than once/);
  invalid(() => checkRegionSettingsUpdate({ requiredRegionIds: [''] }), /list of region ids/);
  invalid(() => checkRegionSettingsUpdate({ maxAllowedRegions: 0 }), /maxAllowedRegions must be a whole number from 1/);
  invalid(() => checkRegionSettingsUpdate({ nodeSelectors: { a: 1 } as never }), /nodeSelectors must map names to string values/);
  invalid(() => checkRegionSettingsUpdate({ regions: [] } as never), /"regions" is not a region setting/);
});

const guardian: ApiGuardian = {
  configuration: {
    shieldZoneId: 9,
    isEnabled: true,
    executionMode: 1,
    bodyLimitAction: 2,
    unmatchedPathAction: 0,
    title: null,
    version: null,
    maxEndpoints: 50,
    maxFieldsPerType: 40,
    maxNestingDepth: 8,
    maxTotalSchemaNodes: 1000,
    maxTotalRegexLength: 2000,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: null,
  },
  endpoints: [
    { apiGuardianEndpointId: 1, requestMethod: 'GET', requestPath: '/a', validateAuthorization: true, isEnabled: false, validateRequestBodySchema: false },
  ],
};

test('api-guardian rows: enum names, no-spec note, limits and one row per endpoint', () => {
  const rows = Object.fromEntries(apiGuardianRows(guardian).map((r) => [r.field, r.value]));
  assert.equal(rows['execution mode'], 'Block');
  assert.equal(rows['body limit action'], 'Ignore');
  assert.equal(rows['unmatched path action'], 'Block');
  assert.equal(rows['spec title'], '(no specification uploaded)');
  assert.equal(rows['max nesting depth'], '8');
  assert.equal(rows['  GET /a'], 'off · validates auth · rate limit off');
});

const lb: LoadBalancer = {
  LoadBalancerId: 1,
  Name: 'x',
  OriginGroups: [
    { Id: 2, Name: 'late', Priority: 10, Origins: [{ Id: 20, OriginType: 1, StorageZoneId: 7, HealthStatus: 1 }] },
    {
      Id: 3,
      Name: 'first',
      Priority: 1,
      Origins: [
        { Id: 30, OriginType: 0, StandardOrigin: { OriginUrl: 'https://o' }, HealthStatus: 0 },
        { Id: 31, OriginType: 3, MagicContainersOrigin: { AppId: 'A', EndPointId: 'E' }, HealthStatus: 0 },
      ],
    },
    { Id: 4, Name: 'empty', Priority: 5, Origins: [] },
  ],
};

test('load balancer rows: groups by priority, each followed by its origins, empty groups kept; targets', () => {
  assert.deepEqual(
    profileRows(lb).map((r) => [r.group.Name, r.kind === 'origin' ? r.origin.Id : null]),
    [
      ['first', null],
      ['first', 30],
      ['first', 31],
      ['empty', null],
      ['late', null],
      ['late', 20],
    ],
  );
  assert.equal(originTarget(lb.OriginGroups[1]!.Origins[1]!), 'app A · endpoint E');
  assert.equal(originTarget(lb.OriginGroups[0]!.Origins[0]!), 'storage zone 7');
});

test('formatting helpers', () => {
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(265572843520), '247 GiB');
  assert.equal(formatBytes(1048570), '1.0 MiB');
  assert.equal(formatBytes(null), '');
  assert.equal(formatDay('2025-03-04T05:06:07Z'), '2025-03-04');
  assert.equal(drmText({ Id: 1, EnableDRM: true, DrmVersion: 1 }), 'Enterprise');
  assert.equal(drmText({ Id: 1, EnableDRM: false, DrmVersion: 1 }), 'off');
  assert.deepEqual(
    regionSettingsRows({ allowedRegionIds: ['DE', 'UK'], requiredRegionIds: ['DE'], maxAllowedRegions: null, provisioningType: 'static' }).map((r) => r.value),
    ['DE UK (2)', 'DE (1)', 'not set', 'static'],
  );
  assert.equal(parseIdArg('ID', '12'), 12);
  assert.throws(
    () => parseIdArg('shield zone ID', '0', 2147483647),
    (e: unknown) => e instanceof UsageError && /positive whole number up to 2147483647 \(got "0"\)/.test(e.message),
  );
});
