import type { Ctx, Router } from '../http-kit';
import type { World } from '../world';
import { seedApps, seedRegions, seedRegionSettings, type McApp, type McRegion, type McRegionSettings } from './containers-seed';
import { seedRegistries, seedWorkload, type McRegistry, type McWorkload } from './containers-workload';
import { isPlainObject, mcError, parseWhole, readJson, type McFieldError } from './replies';

export interface ContainerLimits {
  maxNumberOfApplications: number;
  existingNumberOfApplications: number;
  maxNumberOfRegionsPerApplication: number | null;
  maxNumberOfInstancesPerRegion: number;
  maxNumberOfInstancesPerApplication: number | null;
  maxNumberOfVolumesPerApplication: number;
  maxVolumeSize: number | null;
}

export interface ContainersState {
  limits: ContainerLimits;
  apps: McApp[];
  regions: McRegion[];
  regionSettings: Map<string, McRegionSettings>;
  registries: McRegistry[];
  /** Container templates and volumes per app id. */
  workloads: Map<string, McWorkload>;
}

const states = new WeakMap<World, ContainersState>();

export function containersState(world: World): ContainersState {
  let s = states.get(world);
  if (!s) {
    const r = world.random.fork('containers');
    const apps = seedApps(r);
    const regions = seedRegions();
    const limits: ContainerLimits = {
      maxNumberOfApplications: 25,
      existingNumberOfApplications: apps.length,
      maxNumberOfRegionsPerApplication: 10,
      maxNumberOfInstancesPerRegion: 20,
      maxNumberOfInstancesPerApplication: 100,
      maxNumberOfVolumesPerApplication: 5,
      maxVolumeSize: 100,
    };
    const regionSettings = new Map(apps.map((a) => [a.id, seedRegionSettings(r, regions, limits.maxNumberOfRegionsPerApplication ?? 10)]));
    // A fork of its own, so the apps and settings above stay what they were before workloads existed.
    const w = world.random.fork('containers-workload');
    const registries = seedRegistries(w);
    const workloads = new Map(apps.map((a) => [a.id, seedWorkload(w, a, registries, limits.maxVolumeSize)]));
    s = { limits, apps, regions, regionSettings, registries, workloads };
    states.set(world, s);
  }
  return s;
}

/** Opaque cursor: base64url of {k: list, o: offset}. */
const encodeCursor = (kind: string, offset: number) => Buffer.from(JSON.stringify({ k: kind, o: offset })).toString('base64url');
function decodeCursor(kind: string, text: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (isPlainObject(v) && v.k === kind && typeof v.o === 'number' && Number.isInteger(v.o) && v.o >= 0) return v.o;
  } catch {
    /* not ours */
  }
  return null;
}

/** `{items, meta: {totalItems}, cursor}` with limit (1..1000, default 20) and nextCursor. */
export function sendPage<T>(ctx: Ctx, kind: string, all: T[]): void {
  const errors: McFieldError[] = [];
  let limit = 20;
  const rawLimit = ctx.query.get('limit');
  if (rawLimit !== null && rawLimit !== '') {
    const n = parseWhole(rawLimit.trim());
    if (n === null || n < 1 || n > 1000)
      errors.push({ field: 'limit', message: `limit must be a whole number from 1 to 1000, got "${rawLimit.slice(0, 40)}"` });
    else limit = n;
  }
  let offset = 0;
  const rawCursor = ctx.query.get('nextCursor');
  if (rawCursor !== null && rawCursor !== '') {
    const o = decodeCursor(kind, rawCursor);
    if (o === null) errors.push({ field: 'nextCursor', message: 'nextCursor is not a cursor from a previous page of this list' });
    else offset = o;
  }
  if (errors.length) return mcError(ctx, 400, 'One or more query parameters are invalid.', errors);
  const items = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? encodeCursor(kind, offset + limit) : null;
  ctx.send(200, { items, meta: { totalItems: all.length }, cursor: next });
}

const SETTINGS_FIELDS = ['allowedRegionIds', 'requiredRegionIds', 'maxAllowedRegions', 'nodeSelectors'];

function stringList(value: unknown, field: string, errors: McFieldError[]): string[] | null | undefined {
  if (value === undefined || value === null) return value as null | undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    errors.push({ field, message: `${field} must be an array of region id strings` });
    return undefined;
  }
  const seen = new Set<string>();
  for (const v of value as string[]) {
    if (seen.has(v)) errors.push({ field, message: `${field} lists "${v.slice(0, 20)}" more than once` });
    seen.add(v);
  }
  return value as string[];
}

export function registerContainers(router: Router, world: World): void {
  const state = containersState(world);
  router.get('/mc/limits', (ctx) => ctx.send(200, state.limits));
  router.get('/mc/apps', (ctx) => sendPage(ctx, 'apps', state.apps));
  router.get('/mc/regions', (ctx) => sendPage(ctx, 'regions', state.regions));

  const appFor = (ctx: Ctx): McApp | null => {
    const app = state.apps.find((a) => a.id === ctx.params.appId);
    if (!app) mcError(ctx, 404, `Application "${(ctx.params.appId ?? '').slice(0, 40)}" was not found.`);
    return app ?? null;
  };

  router.get('/mc/apps/:appId/region-settings', (ctx) => {
    const app = appFor(ctx);
    if (!app) return;
    const { nodeSelectors: _hidden, ...shown } = state.regionSettings.get(app.id)!;
    ctx.send(200, shown);
  });

  router.put('/mc/apps/:appId/region-settings', async (ctx) => {
    const app = appFor(ctx);
    if (!app) return;
    const read = await readJson(ctx, (message, status) => mcError(ctx, status, message, [{ field: null, message }], app.id));
    if (!read.ok) return;
    const body = read.value;
    if (!isPlainObject(body)) {
      return mcError(
        ctx,
        400,
        'The request body must be a JSON object.',
        [{ field: null, message: `expected an object with ${SETTINGS_FIELDS.join(', ')}` }],
        app.id,
      );
    }
    const errors: McFieldError[] = [];
    for (const k of Object.keys(body))
      if (!SETTINGS_FIELDS.includes(k)) errors.push({ field: k.slice(0, 60), message: `unknown field; allowed: ${SETTINGS_FIELDS.join(', ')}` });
    const allowedIn = stringList(body.allowedRegionIds, 'allowedRegionIds', errors);
    const requiredIn = stringList(body.requiredRegionIds, 'requiredRegionIds', errors);
    const max = body.maxAllowedRegions;
    if (max !== undefined && max !== null && (typeof max !== 'number' || !Number.isInteger(max))) {
      errors.push({ field: 'maxAllowedRegions', message: 'maxAllowedRegions must be a whole number or null' });
    }
    const selectors = body.nodeSelectors;
    if (selectors !== undefined && selectors !== null) {
      if (!isPlainObject(selectors)) errors.push({ field: 'nodeSelectors', message: 'nodeSelectors must be an object of string keys to string values' });
      else
        for (const [k, v] of Object.entries(selectors))
          if (typeof v !== 'string') errors.push({ field: `nodeSelectors.${k.slice(0, 40)}`, message: 'node selector values must be strings' });
    }
    if (errors.length) return mcError(ctx, 400, 'One or more fields are invalid.', errors, app.id);

    const current = state.regionSettings.get(app.id)!;
    const allowed = allowedIn ?? current.allowedRegionIds;
    const required = requiredIn ?? current.requiredRegionIds;
    const maxAllowed = typeof max === 'number' ? max : current.maxAllowedRegions;
    const known = new Set(state.regions.map((x) => x.id));
    const unknown = (list: string[]) => list.filter((id) => !known.has(id));
    if (allowedIn && unknown(allowedIn).length)
      errors.push({ field: 'allowedRegionIds', message: `unknown region ids: ${unknown(allowedIn).slice(0, 5).join(', ')} (GET /mc/regions lists them)` });
    if (requiredIn && unknown(requiredIn).length)
      errors.push({ field: 'requiredRegionIds', message: `unknown region ids: ${unknown(requiredIn).slice(0, 5).join(', ')} (GET /mc/regions lists them)` });
    if (allowed.length === 0) errors.push({ field: 'allowedRegionIds', message: 'at least one region must be allowed' });
    const outside = required.filter((id) => !allowed.includes(id));
    if (outside.length)
      errors.push({ field: 'requiredRegionIds', message: `required regions must also be allowed: ${outside.join(', ')} not in allowedRegionIds` });
    const limit = state.limits.maxNumberOfRegionsPerApplication;
    if (maxAllowed !== null) {
      if (maxAllowed < 1) errors.push({ field: 'maxAllowedRegions', message: 'maxAllowedRegions must be at least 1' });
      else if (limit !== null && maxAllowed > limit)
        errors.push({ field: 'maxAllowedRegions', message: `maxAllowedRegions ${maxAllowed} is over the account limit of ${limit} regions per application` });
      if (maxAllowed < required.length)
        errors.push({ field: 'maxAllowedRegions', message: `maxAllowedRegions ${maxAllowed} is less than the ${required.length} required regions` });
    } else if (limit !== null && required.length > limit) {
      errors.push({ field: 'requiredRegionIds', message: `${required.length} required regions is over the account limit of ${limit}` });
    }
    if (errors.length) return mcError(ctx, 400, 'The region settings are not valid.', errors, app.id);
    if (app.status === 'suspended') return mcError(ctx, 403, 'The application is suspended; its settings cannot be changed.', null, app.id);
    const full = required.filter((id) => state.regions.find((x) => x.id === id)?.hasCapacity === false);
    if (requiredIn && full.length) {
      return mcError(
        ctx,
        422,
        'Some required regions have no capacity.',
        full.map((id) => ({ field: 'requiredRegionIds', message: `region ${id} has no capacity at the moment` })),
        app.id,
      );
    }
    state.regionSettings.set(app.id, {
      allowedRegionIds: [...allowed],
      requiredRegionIds: [...required],
      maxAllowedRegions: maxAllowed,
      provisioningType: current.provisioningType,
      nodeSelectors: selectors === undefined || selectors === null ? current.nodeSelectors : { ...(selectors as Record<string, string>) },
    });
    ctx.send(200);
  });
}
