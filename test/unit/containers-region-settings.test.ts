import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ContainerLimits, Region, RegionSettings } from '../../src/api/containers';
import {
  baseForDiff,
  bumpMax,
  capacityWarnings,
  deleteSelector,
  draftBody,
  draftFrom,
  hasMessages,
  isDirty,
  mapServerErrors,
  putSelector,
  toggleAllowed,
  toggleRequired,
  validateDraft,
} from '../../src/state/containers-region-draft';
import { diffLineText, diffValues } from '../../src/text/diff';
import { regionRows, idList, maxText, messagesFor } from '../../src/screens/containers/region-editor-view';
import { appsSummary, nearEnd } from '../../src/screens/containers/apps-view';
import { appStatusTone, endpointText } from '../../src/renderers/container-apps';
import { selectedRowOf } from '../../src/state/table-selection';
import { type Column, defaultTableView } from '../../src/text/table-model';

const limits = (maxRegions: number | null): ContainerLimits => ({
  maxNumberOfApplications: 25,
  existingNumberOfApplications: 3,
  maxNumberOfRegionsPerApplication: maxRegions,
  maxNumberOfInstancesPerRegion: 20,
  maxNumberOfInstancesPerApplication: 100,
  maxNumberOfVolumesPerApplication: 5,
  maxVolumeSize: 100,
});
const region = (id: string, hasCapacity = true): Region => ({ id, name: `name ${id}`, group: 'Europe', hasAnycastSupport: false, hasCapacity });
const REGIONS = ['DE', 'UK', 'FR', 'SE', 'ES'].map((id) => region(id, id !== 'ES'));
const settings = (allowed: string[], required: string[], max: number | null): RegionSettings => ({
  allowedRegionIds: allowed,
  requiredRegionIds: required,
  maxAllowedRegions: max,
  provisioningType: 'static',
});

test('a draft starts as the settings and is clean; toggles make it dirty and back', () => {
  const s = settings(['DE', 'UK'], ['DE'], 2);
  const d = draftFrom(s);
  assert.deepEqual([d.allowed, d.required, d.maxAllowedRegions, d.selectors, d.selectorsTouched, d.knownSelectors], [['DE', 'UK'], ['DE'], 2, [], false, null]);
  assert.equal(isDirty(d, s), false);
  const more = toggleAllowed(d, 'FR');
  assert.deepEqual(more.allowed, ['DE', 'UK', 'FR']);
  assert.equal(isDirty(more, s), true);
  assert.equal(isDirty(toggleAllowed(more, 'FR'), s), false, 'toggling twice is no change');
  assert.deepEqual(toggleRequired(d, 'DE').required, []);
  assert.deepEqual(d.allowed, ['DE', 'UK'], 'drafts are not mutated');
});

test('validation: at least one allowed, required within allowed, account limit, max from 1 to the limit and not below required', () => {
  const ok = draftFrom(settings(['DE', 'UK'], ['DE'], 2));
  assert.equal(hasMessages(validateDraft(ok, limits(10), REGIONS)), false);

  assert.match(validateDraft({ ...ok, allowed: [], required: [] }, limits(10), REGIONS).allowed![0]!, /allow at least one region/);
  const outside = validateDraft({ ...ok, required: ['DE', 'FR'] }, limits(10), REGIONS);
  assert.deepEqual(outside.required, ['required regions must also be allowed: FR']);
  assert.equal(outside.allowed, undefined, 'the message sits next to the required field only');

  const overLimit = validateDraft({ ...ok, allowed: ['DE', 'UK', 'FR'], required: ['DE', 'UK', 'FR'], maxAllowedRegions: 3 }, limits(2), REGIONS);
  assert.match(overLimit.required![0]!, /3 required regions is over the account limit of 2 per application/);
  assert.match(overLimit.max![0]!, /max allowed regions 3 is over the account limit of 2/);

  const below = validateDraft({ ...ok, allowed: ['DE', 'UK'], required: ['DE', 'UK'], maxAllowedRegions: 1 }, limits(10), REGIONS);
  assert.deepEqual(below.max, ['max allowed regions 1 is below the 2 required regions']);
  assert.match(validateDraft({ ...ok, maxAllowedRegions: 0 }, limits(10), REGIONS).max![0]!, /at least 1, got 0/);

  const unknown = validateDraft({ ...ok, allowed: ['DE', 'XX'], required: ['XX'] }, limits(10), REGIONS);
  assert.match(unknown.allowed![0]!, /not in the region list: XX/);
  assert.match(unknown.required![0]!, /not in the region list: XX/);

  assert.equal(hasMessages(validateDraft({ ...ok, maxAllowedRegions: 50 }, null, null)), false, 'without limits or regions only the local rules apply');
  assert.equal(hasMessages(validateDraft({ ...ok, maxAllowedRegions: 50 }, limits(null), REGIONS)), false, 'a null account limit is no limit');
});

test('validation of node selectors: a key is needed, keys are unique', () => {
  let d = draftFrom(settings(['DE'], [], null));
  d = putSelector(d, null, { key: ' tier ', value: 'gpu' });
  d = putSelector(d, null, { key: 'tier', value: 'cpu' });
  d = putSelector(d, null, { key: '', value: 'x' });
  assert.deepEqual(d.selectors[0], { key: 'tier', value: 'gpu' }, 'keys are trimmed');
  assert.deepEqual(validateDraft(d, limits(10), REGIONS).selectors, ['row 2: key "tier" is listed twice', 'row 3: a node selector needs a key']);
  d = putSelector(d, 1, { key: 'zone', value: 'a' });
  d = deleteSelector(d, 2);
  assert.deepEqual(d.selectors, [
    { key: 'tier', value: 'gpu' },
    { key: 'zone', value: 'a' },
  ]);
  assert.equal(validateDraft(d, limits(10), REGIONS).selectors, undefined);
  assert.equal(deleteSelector(d, 9), d, 'deleting a missing row changes nothing');
});

test('max allowed regions: +/- stay between 1 and the account limit; from "not set" the first step lands on the allowed count', () => {
  const d = draftFrom(settings(['DE', 'UK', 'FR'], ['DE'], null));
  assert.equal(bumpMax(d, 1, 10).maxAllowedRegions, 3);
  assert.equal(bumpMax(d, -1, 10).maxAllowedRegions, 3);
  const two = { ...d, maxAllowedRegions: 2 };
  assert.equal(bumpMax(two, 1, 10).maxAllowedRegions, 3);
  assert.equal(bumpMax(two, -1, 10).maxAllowedRegions, 1);
  assert.equal(bumpMax({ ...d, maxAllowedRegions: 1 }, -1, 10).maxAllowedRegions, 1);
  assert.equal(bumpMax({ ...d, maxAllowedRegions: 10 }, 1, 10).maxAllowedRegions, 10);
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: -5, max: 5 }),
      fc.option(fc.integer({ min: 1, max: 60 }), { nil: null }),
      (start, delta, limit) => {
        const v = bumpMax({ ...d, maxAllowedRegions: start }, delta, limit).maxAllowedRegions!;
        return v >= 1 && v <= (limit ?? 1000);
      },
    ),
  );
});

test('the body: regions and max always, node selectors only when changed (they replace the whole set)', () => {
  const s = settings(['DE', 'UK'], ['DE'], 2);
  const d = toggleAllowed(draftFrom(s), 'FR');
  assert.deepEqual(draftBody(d), { allowedRegionIds: ['DE', 'UK', 'FR'], requiredRegionIds: ['DE'], maxAllowedRegions: 2 });
  const withSel = putSelector(d, null, { key: 'tier', value: 'gpu' });
  assert.deepEqual(draftBody(withSel).nodeSelectors, { tier: 'gpu' });
  assert.deepEqual(draftBody(deleteSelector(withSel, 0)).nodeSelectors, {}, 'deleting every row sends an empty set');
});

test('the confirm diff shows exactly what changes: regions as whole lists, node selectors by key', () => {
  const s = settings(['DE', 'UK'], ['DE'], 2);
  let d = toggleAllowed(draftFrom(s), 'FR');
  d = bumpMax(d, 1, 10);
  d = putSelector(d, null, { key: 'tier', value: 'gpu' });
  const lines = diffValues(baseForDiff(s, d), draftBody(d)).map(diffLineText);
  assert.deepEqual(lines, ['~ allowedRegionIds: ["DE","UK"] → ["DE","UK","FR"]', '~ maxAllowedRegions: 2 → 3', '+ nodeSelectors.tier: "gpu"']);
  // Selectors burrow sent before are diffed key by key.
  const known = draftFrom(s, [{ key: 'tier', value: 'gpu' }]);
  const changed = putSelector(known, 0, { key: 'tier', value: 'cpu' });
  assert.deepEqual(diffValues(baseForDiff(s, changed), draftBody(changed)).map(diffLineText), ['~ nodeSelectors.tier: "gpu" → "cpu"']);
  assert.deepEqual(diffValues(baseForDiff(s, draftFrom(s)), draftBody(draftFrom(s))), [], 'an untouched draft sends no change');
});

test('server validation errors go next to their fields, whatever the casing; the rest on the general line', () => {
  const m = mapServerErrors([
    { field: 'requiredRegionIds', message: 'region ES has no capacity at the moment' },
    { field: 'AllowedRegionIds', message: 'unknown region ids: XX' },
    { field: '$.maxAllowedRegions', message: 'too many' },
    { field: 'nodeSelectors.tier', message: 'node selector values must be strings' },
    { field: 'somethingElse', message: 'odd' },
    { field: null, message: 'plain' },
  ]);
  assert.deepEqual(m, {
    required: ['region ES has no capacity at the moment'],
    allowed: ['unknown region ids: XX'],
    max: ['too many'],
    selectors: ['node selector values must be strings'],
    general: ['somethingElse: odd', 'plain'],
  });
  assert.deepEqual(mapServerErrors([], '403 Forbidden: suspended'), { general: ['403 Forbidden: suspended'] });
  assert.deepEqual(messagesFor('required', { required: ['a'] }, m), ['a', 'region ES has no capacity at the moment (server)']);
});

test('region checklist rows: the live list in order with marks, then ids the list lacks; capacity warnings', () => {
  const d = { ...draftFrom(settings(['UK', 'ZZ'], ['UK', 'ES'], 3)) };
  const rows = regionRows(REGIONS, d);
  assert.deepEqual(
    rows.map((r) => `${r.id}:${r.allowed ? 'A' : '-'}${r.required ? 'R' : '-'}`),
    ['DE:--', 'UK:AR', 'FR:--', 'SE:--', 'ES:-R', 'ZZ:A-'],
  );
  assert.equal(rows.at(-1)!.name, '(not in the region list)');
  assert.deepEqual(capacityWarnings(d, REGIONS), ['ES']);
  assert.equal(idList([]), 'none');
  assert.equal(idList(['DE', 'UK']), 'DE UK (2)');
  assert.equal(maxText(null, limits(10)), 'not set · account limit 10 per application');
  assert.equal(maxText(4, null), '4 · account limit not loaded');
});

test('apps list presentation: status colours, endpoint, summary, and when to load more', () => {
  assert.deepEqual(['active', 'progressing', 'failing', 'suspended', 'inactive', 'unknown', null].map(appStatusTone), [
    'ok',
    'warn',
    'error',
    'error',
    'muted',
    'muted',
    'muted',
  ]);
  assert.equal(endpointText({ id: 'a', displayEndpoint: { address: 'mc-x.b-cdn.net', type: 'cdn' } }), 'mc-x.b-cdn.net (cdn)');
  assert.equal(endpointText({ id: 'a', displayEndpoint: null }), '');
  const base = { items: Array.from({ length: 20 }, (_, i) => ({ id: `a${i}` })), cursor: 'c', totalItems: 45, loading: false, error: null, loadedAt: 1 };
  assert.equal(appsSummary(base), '20 of 45 loaded · more load as you scroll');
  assert.equal(appsSummary({ ...base, loading: true }), '20 of 45 loaded · loading more…');
  assert.equal(appsSummary({ ...base, cursor: null, items: base.items.slice(0, 1) }), '1 application');
  assert.equal(appsSummary({ ...base, loadedAt: null }), 'loading applications…');
  assert.equal(nearEnd(14, 20), false);
  assert.equal(nearEnd(15, 20), true);
});

test('selectedRowOf applies the table filter and sort like the Table does', () => {
  type R = { n: string; v: number };
  const rows: R[] = [
    { n: 'alpha', v: 3 },
    { n: 'beta', v: 1 },
    { n: 'gamma', v: 2 },
    { n: 'delta', v: 5 },
  ];
  const cols: Column<R>[] = [
    { id: 'n', header: 'N', cell: (r) => r.n },
    { id: 'v', header: 'V', cell: (r) => String(r.v), sortValue: (r) => r.v },
  ];
  const ui = (selected: number, filter = '', sortColumn: string | null = null, sortDesc = false) => ({
    views: { k: { ...defaultTableView, selected, sortColumn, sortDesc } },
    filters: { k: { text: { value: filter, cursor: filter.length }, editing: false } },
  });
  assert.equal(selectedRowOf(ui(1), 'k', rows, cols)!.row.n, 'beta');
  assert.equal(selectedRowOf(ui(0, 'ta'), 'k', rows, cols)!.row.n, 'beta', 'filter "ta": beta, delta');
  assert.equal(selectedRowOf(ui(9, 'ta'), 'k', rows, cols)!.row.n, 'delta', 'clamped to the last shown row');
  const sorted = selectedRowOf(ui(0, '', 'v', true), 'k', rows, cols)!;
  assert.deepEqual([sorted.row.n, sorted.index, sorted.position, sorted.shown], ['delta', 3, 0, 4]);
  assert.equal(selectedRowOf(ui(0, 'zzz'), 'k', rows, cols), null);
  assert.equal(selectedRowOf({ views: {}, filters: {} }, 'k', rows, cols)!.row.n, 'alpha', 'no view state yet: the first row');
});
