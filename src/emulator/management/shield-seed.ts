import { stringify as toYaml } from 'yaml';
import type { Random } from '../random';
import type { World } from '../world';
import type { PlanLimits } from './spec-limits';

/** ShieldZoneResponse as the Shield API sends it. */
export interface ShieldZone {
  shieldZoneId: number;
  pullZoneId: number | null;
  learningMode: boolean | null;
  learningModeUntil: string | null;
  wafEnabled: boolean | null;
  wafExecutionMode: number;
  wafDisabledRules: string[] | null;
  wafLogOnlyRules: string[] | null;
  wafCustomRuleOrder: number[] | null;
  wafRequestHeaderLoggingEnabled: boolean;
  requestBodyLoggingEnabled: boolean;
  wafRequestIgnoredHeaders: string[] | null;
  wafRealtimeThreatIntelligenceEnabled: boolean | null;
  wafProfileId: number | null;
  wafEngineConfig: { name: string; valueEncoded: string }[] | null;
  wafRequestBodyLimitAction: number;
  wafResponseBodyLimitAction: number;
  rateLimitRulesLimit: number;
  customWafRulesLimit: number;
  planType: number;
  dDoSShieldSensitivity: number;
  dDoSExecutionMode: number;
  dDoSChallengeWindow: number | null;
  whitelabelResponsePages: boolean | null;
}

export interface GuardianConfiguration extends PlanLimits {
  shieldZoneId: number;
  isEnabled: boolean;
  executionMode: number;
  bodyLimitAction: number;
  unmatchedPathAction: number;
  title: string | null;
  version: string | null;
  createdAt: string;
  updatedAt: string | null;
}

/** Plan limits of API Guardian per shield plan; Basic (0) has no API Guardian. */
export const GUARDIAN_PLAN_LIMITS: Record<number, PlanLimits | null> = {
  0: null,
  1: { maxEndpoints: 50, maxFieldsPerType: 50, maxNestingDepth: 8, maxTotalSchemaNodes: 1000, maxTotalRegexLength: 2000 },
  2: { maxEndpoints: 250, maxFieldsPerType: 100, maxNestingDepth: 16, maxTotalSchemaNodes: 5000, maxTotalRegexLength: 10000 },
  3: { maxEndpoints: 1000, maxFieldsPerType: 250, maxNestingDepth: 32, maxTotalSchemaNodes: 25000, maxTotalRegexLength: 50000 },
};

const PLAN_RULE_LIMITS: Record<number, [number, number]> = { 0: [5, 5], 1: [10, 25], 2: [25, 50], 3: [100, 250] };
/** Plans of the ten seeded zones, in order: every plan appears, Basic twice. */
const PLANS = [3, 2, 1, 0, 2, 1, 3, 0, 1, 2];
const RULES = ['913100', '920230', '920300', '920320', '930120', '932100', '933160', '941100', '942100', '942260', '949110'];
const HEADERS = ['Cookie', 'Authorization', 'X-Api-Key', 'X-Forwarded-For', 'X-Session'];

export function isoDaysAgo(world: World, days: number, r: Random): string {
  return new Date(world.startedAt - Math.round(days * 86_400_000) - r.int(0, 86_399) * 1000).toISOString();
}

export function seedShieldZones(world: World, r: Random): ShieldZone[] {
  const zones = world.pullZones.slice(0, PLANS.length);
  let id = 18_200 + r.int(0, 80);
  return zones.map((pz, i) => {
    id += r.int(3, 40);
    const planType = PLANS[i]!;
    const [rateLimits, customRules] = PLAN_RULE_LIMITS[planType]!;
    const learning = r.bool(0.2);
    return {
      shieldZoneId: id,
      pullZoneId: pz.Id,
      learningMode: learning,
      learningModeUntil: learning ? new Date(world.startedAt + r.int(1, 6) * 86_400_000).toISOString() : null,
      wafEnabled: r.bool(0.8),
      wafExecutionMode: r.bool(0.6) ? 1 : 0,
      wafDisabledRules: Array.from(new Set(Array.from({ length: r.int(0, 3) }, () => r.pick(RULES)))),
      wafLogOnlyRules: Array.from(new Set(Array.from({ length: r.int(0, 2) }, () => r.pick(RULES)))),
      wafCustomRuleOrder: Array.from({ length: r.int(0, 3) }, (_, k) => 5000 + i * 10 + k),
      wafRequestHeaderLoggingEnabled: r.bool(0.5),
      requestBodyLoggingEnabled: r.bool(0.3),
      wafRequestIgnoredHeaders: Array.from(new Set(Array.from({ length: r.int(0, 2) }, () => r.pick(HEADERS)))),
      wafRealtimeThreatIntelligenceEnabled: planType >= 2 ? r.bool(0.7) : false,
      wafProfileId: r.pick([1, 2, 3, null]),
      wafEngineConfig: r.bool(0.5) ? [{ name: 'PARANOIA_LEVEL', valueEncoded: String(r.int(1, 4)) }] : [],
      wafRequestBodyLimitAction: r.int(0, 2),
      wafResponseBodyLimitAction: r.int(0, 2),
      rateLimitRulesLimit: rateLimits,
      customWafRulesLimit: customRules,
      planType,
      dDoSShieldSensitivity: r.int(0, 4),
      dDoSExecutionMode: r.bool(0.7) ? 1 : 0,
      dDoSChallengeWindow: r.pick([300, 900, 1800, null]),
      whitelabelResponsePages: planType >= 2 ? r.bool() : false,
    };
  });
}

const RESOURCES = ['orders', 'customers', 'products', 'carts', 'invoices', 'shipments', 'coupons', 'reviews', 'users', 'sessions', 'webhooks', 'payments'];
const API_TITLES = ['Storefront API', 'Checkout Service', 'Partner API', 'Catalog API', 'Accounts API', 'Media API'];

const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '');
const pascal = (name: string) => singular(name).replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());

/** A realistic OpenAPI 3 document as YAML text: a few CRUD resources with schemas and auth. */
export function demoSpecText(r: Random, resourceCount: number): string {
  const pool = [...RESOURCES];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const names = pool.slice(0, resourceCount);
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {
    Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' }, code: { type: 'string', pattern: '^[a-z_.]+$' } } },
  };
  for (const name of names) {
    const T = pascal(name);
    schemas[T] = {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string', pattern: '^[A-Za-z0-9]{12}$' },
        createdAt: { type: 'string', format: 'date-time' },
        status: { type: 'string', enum: ['active', 'archived'] },
        tags: { type: 'array', items: { type: 'string', maxLength: 32 } },
        owner: { $ref: '#/components/schemas/Owner' },
      },
    };
    const list = {
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: `#/components/schemas/${T}` } }, nextCursor: { type: 'string', nullable: true } },
    };
    const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
    paths[`/v1/${name}`] = {
      get: {
        operationId: `list${T}s`,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'OK', ...json(list) }, '401': { description: 'Unauthorized', ...json({ $ref: '#/components/schemas/Error' }) } },
      },
      post: {
        operationId: `create${T}`,
        requestBody: { required: true, ...json({ $ref: `#/components/schemas/${T}` }) },
        responses: { '201': { description: 'Created', ...json({ $ref: `#/components/schemas/${T}` }) } },
      },
    };
    const idParam = { name: `${singular(name)}Id`, in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9]{12}$' } };
    paths[`/v1/${name}/{${singular(name)}Id}`] = {
      parameters: [idParam],
      get: {
        operationId: `get${T}`,
        responses: { '200': { description: 'OK', ...json({ $ref: `#/components/schemas/${T}` }) }, '404': { description: 'Not found' } },
      },
      patch: {
        operationId: `update${T}`,
        parameters: [{ name: 'If-Match', in: 'header', schema: { type: 'string' } }],
        requestBody: json({ $ref: `#/components/schemas/${T}` }),
        responses: { '200': { description: 'OK', ...json({ $ref: `#/components/schemas/${T}` }) } },
      },
      delete: { operationId: `delete${T}`, responses: { '204': { description: 'Deleted' } } },
    };
  }
  schemas.Owner = { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string', format: 'email', pattern: '^[^@\\s]+@[^@\\s]+$' } } };
  paths['/health'] = { get: { operationId: 'health', security: [], responses: { '200': { description: 'OK' } } } };
  const doc = {
    openapi: '3.0.3',
    info: { title: r.pick(API_TITLES), version: `${r.int(1, 3)}.${r.int(0, 12)}.${r.int(0, 9)}` },
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
      schemas,
    },
  };
  return toYaml(doc);
}
