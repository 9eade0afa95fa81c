import type { Ctx, Router } from '../http-kit';
import type { World } from '../world';
import { deriveEndpoints, type GuardianEndpoint } from './guardian-endpoints';
import { aspNetBindingError, int32Id, isPlainObject, parseWhole, readJson, shieldError, shieldOk } from './replies';
import { demoSpecText, GUARDIAN_PLAN_LIMITS, isoDaysAgo, seedShieldZones, type GuardianConfiguration, type ShieldZone } from './shield-seed';
import { limitViolations, measureSpec, parseSpecText, SpecError, type ParsedSpec } from './spec-limits';

export interface ZoneGuardian {
  configuration: GuardianConfiguration;
  endpoints: GuardianEndpoint[];
  /** The uploaded OpenAPI text, null before the first upload. */
  specContent: string | null;
}

export interface ShieldState {
  zones: ShieldZone[];
  /** Absent for zones whose plan has no API Guardian. */
  guardian: Map<number, ZoneGuardian>;
  nextEndpointId(): number;
}

const states = new WeakMap<World, ShieldState>();

export function shieldState(world: World): ShieldState {
  let s = states.get(world);
  if (s) return s;
  const r = world.random.fork('shield');
  const zones = seedShieldZones(world, r);
  let endpointId = 7_310_000 + r.int(0, 9999);
  const guardian = new Map<number, ZoneGuardian>();
  s = { zones, guardian, nextEndpointId: () => ++endpointId };
  for (const z of zones) {
    const limits = GUARDIAN_PLAN_LIMITS[z.planType];
    if (!limits) continue;
    const created = isoDaysAgo(world, r.int(20, 400), r);
    const g: ZoneGuardian = {
      configuration: {
        shieldZoneId: z.shieldZoneId,
        isEnabled: r.bool(0.6),
        executionMode: r.int(0, 1),
        bodyLimitAction: r.int(0, 2),
        unmatchedPathAction: r.int(0, 2),
        title: null,
        version: null,
        ...limits,
        createdAt: created,
        updatedAt: r.bool(0.5) ? isoDaysAgo(world, r.int(0, 19), r) : null,
      },
      endpoints: [],
      specContent: null,
    };
    if (r.bool(0.65)) {
      const text = demoSpecText(r, r.int(2, 6));
      applySpec(s, g, parseSpecText(text), text, r.bool(0.8), g.configuration.updatedAt ?? created);
    }
    guardian.set(z.shieldZoneId, g);
  }
  states.set(world, s);
  return s;
}

function applySpec(state: ShieldState, g: ZoneGuardian, spec: ParsedSpec, text: string, enforceAuth: boolean | null, nowIso: string): void {
  g.endpoints = deriveEndpoints(spec, g.configuration.shieldZoneId, enforceAuth, g.endpoints, state.nextEndpointId, nowIso);
  g.specContent = text;
  g.configuration.title = spec.title;
  g.configuration.version = spec.version;
  g.configuration.updatedAt = nowIso;
}

const ENUMS: Record<string, [number[], string]> = {
  executionMode: [[0, 1], '0 (Log) or 1 (Block)'],
  bodyLimitAction: [[0, 1, 2], '0 (Block), 1 (Log) or 2 (Ignore)'],
  unmatchedPathAction: [[0, 1, 2], '0 (Block), 1 (Log) or 2 (Ignore)'],
};
const PATCH_FIELDS = ['isEnabled', 'executionMode', 'bodyLimitAction', 'unmatchedPathAction'];
const SPEC_FIELDS = ['content', 'enforceAuthorizationValidation'];

const show = (v: unknown) => JSON.stringify(v)?.slice(0, 60) ?? String(v);

function unknownField(ctx: Ctx, body: Record<string, unknown>, allowed: string[]): boolean {
  const extra = Object.keys(body).find((k) => !allowed.includes(k));
  if (extra === undefined) return false;
  shieldError(ctx, 400, 'api_guardian.unknown_field', `unknown field "${extra.slice(0, 60)}": the allowed fields are ${allowed.join(', ')}`);
  return true;
}

export function registerShield(router: Router, world: World): void {
  // seeded at the first shield request, not at start: the zones' OpenAPI documents are YAML made
  // and parsed again, most of an emulator's start-up, and most runs never ask for them
  let seeded: ShieldState | null = null;
  const state = () => (seeded ??= shieldState(world));
  const nowIso = () => new Date(world.now()).toISOString();

  /** The zone for the route's id, or an answer (400 binding error, 404 envelope) and null. */
  const zoneFor = (ctx: Ctx): ShieldZone | null => {
    const raw = ctx.params.shieldZoneId ?? '';
    const id = int32Id(raw);
    if (id === null) {
      aspNetBindingError(ctx, 'shieldZoneId', raw.slice(0, 100));
      return null;
    }
    const zone = state().zones.find((z) => z.shieldZoneId === id);
    if (!zone) shieldError(ctx, 404, 'shield_zone.not_found', `Shield zone ${id} was not found`);
    return zone ?? null;
  };
  const guardianFor = (ctx: Ctx): ZoneGuardian | null => {
    const zone = zoneFor(ctx);
    if (!zone) return null;
    const g = state().guardian.get(zone.shieldZoneId);
    if (!g) {
      shieldError(
        ctx,
        403,
        'invalid_plan_type.api_guardian',
        `API Guardian is not available on the Basic plan of shield zone ${zone.shieldZoneId}: upgrade the zone to Advanced or higher`,
      );
      return null;
    }
    return g;
  };

  router.get('/shield/shield-zones', (ctx) => {
    const bad: Record<string, string[]> = {};
    const read = (name: string, fallback: number, min: number, max: number): number => {
      const raw = ctx.query.get(name);
      if (raw === null || raw === '') return fallback;
      const n = parseWhole(raw.trim());
      if (n === null || n < -2147483648 || n > 2147483647) bad[name] = [`The value '${raw.slice(0, 60)}' is not valid.`];
      else if (n < min || n > max) bad[name] = [`The field ${name} must be between ${min} and ${max}.`];
      return n ?? fallback;
    };
    const page = read('page', 1, 1, 2147483647);
    const perPage = read('perPage', 10, 1, 1000);
    if (Object.keys(bad).length) {
      ctx.send(400, { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', title: 'One or more validation errors occurred.', status: 400, errors: bad });
      return;
    }
    const total = state().zones.length;
    const totalPages = Math.ceil(total / perPage);
    const start = (page - 1) * perPage;
    ctx.send(200, {
      data: start < total ? state().zones.slice(start, start + perPage) : [],
      page: { totalCount: total, totalPages, currentPage: page, nextPage: page < totalPages ? page + 1 : null, pageSize: perPage },
    });
  });

  router.get('/shield/shield-zone/:shieldZoneId', (ctx) => {
    const zone = zoneFor(ctx);
    if (zone) ctx.send(200, { data: zone });
  });

  router.get('/shield/shield-zone/:shieldZoneId/api-guardian', (ctx) => {
    const g = guardianFor(ctx);
    if (g) shieldOk(ctx, { configuration: g.configuration, endpoints: g.endpoints });
  });

  router.patch('/shield/shield-zone/:shieldZoneId/api-guardian', async (ctx) => {
    const g = guardianFor(ctx);
    if (!g) return;
    const read = await readJson(ctx, (message, status) => shieldError(ctx, status, 'api_guardian.invalid_body', message));
    if (!read.ok) return;
    const body = read.value;
    if (!isPlainObject(body))
      return shieldError(
        ctx,
        400,
        'api_guardian.invalid_body',
        'the body must be a JSON object with any of: isEnabled, executionMode, bodyLimitAction, unmatchedPathAction',
      );
    if (unknownField(ctx, body, PATCH_FIELDS)) return;
    if (body.isEnabled !== undefined && body.isEnabled !== null && typeof body.isEnabled !== 'boolean') {
      return shieldError(ctx, 400, 'api_guardian.invalid_value', `isEnabled must be true, false or null, got ${show(body.isEnabled)}`);
    }
    for (const [field, [allowed, text]] of Object.entries(ENUMS)) {
      const v = body[field];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'number' || !allowed.includes(v)) return shieldError(ctx, 400, 'api_guardian.invalid_value', `${field} must be ${text}, got ${show(v)}`);
    }
    const c = g.configuration;
    if (typeof body.isEnabled === 'boolean') c.isEnabled = body.isEnabled;
    if (typeof body.executionMode === 'number') c.executionMode = body.executionMode;
    if (typeof body.bodyLimitAction === 'number') c.bodyLimitAction = body.bodyLimitAction;
    if (typeof body.unmatchedPathAction === 'number') c.unmatchedPathAction = body.unmatchedPathAction;
    c.updatedAt = nowIso();
    shieldOk(ctx, c);
  });

  const upsertSpec = (mode: 'upload' | 'replace') => async (ctx: Ctx) => {
    const g = guardianFor(ctx);
    if (!g) return;
    const read = await readJson(ctx, (message, status) => shieldError(ctx, status, 'api_guardian.invalid_body', message));
    if (!read.ok) return;
    const body = read.value;
    if (!isPlainObject(body))
      return shieldError(
        ctx,
        400,
        'api_guardian.invalid_body',
        'the body must be a JSON object: {"content": "<OpenAPI text>", "enforceAuthorizationValidation": true}',
      );
    if (unknownField(ctx, body, SPEC_FIELDS)) return;
    const enforce = body.enforceAuthorizationValidation;
    if (enforce !== undefined && enforce !== null && typeof enforce !== 'boolean') {
      return shieldError(ctx, 400, 'api_guardian.invalid_value', `enforceAuthorizationValidation must be true, false or null, got ${show(enforce)}`);
    }
    if (typeof body.content !== 'string' || body.content.trim() === '') {
      return shieldError(ctx, 400, 'api_guardian.content_required', 'content is required: the whole OpenAPI document (JSON or YAML) as one string');
    }
    const c = g.configuration;
    if (mode === 'upload' && g.specContent !== null) {
      return shieldError(
        ctx,
        400,
        'api_guardian.spec_already_exists',
        `shield zone ${c.shieldZoneId} already has a specification (${c.title} ${c.version}): replace it with PATCH`,
      );
    }
    if (mode === 'replace' && g.specContent === null) {
      return shieldError(ctx, 404, 'api_guardian.spec_not_found', `shield zone ${c.shieldZoneId} has no specification to replace: upload one with POST`);
    }
    let spec: ParsedSpec;
    try {
      spec = parseSpecText(body.content);
      const violations = limitViolations(measureSpec(spec), c);
      if (violations.length) {
        return shieldError(
          ctx,
          400,
          'api_guardian.spec_limit_exceeded',
          `the specification exceeds the plan limits of shield zone ${c.shieldZoneId}: ${violations.map((v) => v.text).join('; ')}`,
        );
      }
    } catch (error) {
      if (error instanceof SpecError) return shieldError(ctx, 400, 'api_guardian.invalid_spec', `the specification could not be read: ${error.message}`);
      throw error;
    }
    const enforceAuth = typeof enforce === 'boolean' ? enforce : mode === 'upload' ? true : null;
    applySpec(state(), g, spec, body.content, enforceAuth, nowIso());
    shieldOk(ctx, { configuration: c, endpoints: g.endpoints });
  };
  router.post('/shield/shield-zone/:shieldZoneId/api-guardian/spec', upsertSpec('upload'));
  router.patch('/shield/shield-zone/:shieldZoneId/api-guardian/spec', upsertSpec('replace'));
}
