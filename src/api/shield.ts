import type { z } from 'zod';
import { ApiError } from './errors';
import type { HttpClient } from './http';
import { checkId, checkWhole, INT32_MAX, invalidInput } from './input-checks';
import { lazySchema, type Infer, type LazySchema } from './lazy-schema';
import { keepRawJson } from './raw-json';

/** Readable names of the shield enums, for screens and tables. */
export const WAF_EXECUTION_MODE: Readonly<Record<number, string>> = { 0: 'Log', 1: 'Block' };
export const WAF_PAYLOAD_LIMIT_ACTION: Readonly<Record<number, string>> = { 0: 'Block', 1: 'Log', 2: 'Ignore' };
export const UNMATCHED_PATH_ACTION: Readonly<Record<number, string>> = { 0: 'Block', 1: 'Log', 2: 'Ignore' };
export const SHIELD_PLAN_TYPE: Readonly<Record<number, string>> = { 0: 'Basic', 1: 'Advanced', 2: 'Business', 3: 'Enterprise' };
export const DDOS_SENSITIVITY: Readonly<Record<number, string>> = { 0: 'Off', 1: 'Low', 2: 'Medium', 3: 'High', 4: 'Challenge' };
export const DDOS_EXECUTION_MODE: Readonly<Record<number, string>> = { 0: 'Log', 1: 'Block' };
export const RATE_LIMIT_TIMEFRAME: Readonly<Record<number, string>> = {
  1: 'per second',
  10: 'per 10 seconds',
  60: 'per minute',
  300: 'per 5 minutes',
  900: 'per 15 minutes',
  3600: 'per hour',
};

export const ShieldZoneSchema = lazySchema((z) => {
  const int = z.number().int();
  return z.looseObject({
    shieldZoneId: int,
    pullZoneId: int.nullish(),
    learningMode: z.boolean().nullish(),
    learningModeUntil: z.string().nullish(),
    wafEnabled: z.boolean().nullish(),
    wafExecutionMode: int.nullish(),
    wafRequestBodyLimitAction: int.nullish(),
    wafResponseBodyLimitAction: int.nullish(),
    rateLimitRulesLimit: int.nullish(),
    customWafRulesLimit: int.nullish(),
    planType: int.nullish(),
    dDoSShieldSensitivity: int.nullish(),
    dDoSExecutionMode: int.nullish(),
  });
});
export type ShieldZone = Infer<typeof ShieldZoneSchema>;

const PageInfoSchema = lazySchema((z) => {
  const int = z.number().int();
  return z.object({
    totalCount: int,
    totalPages: int,
    currentPage: int,
    nextPage: int.nullish(),
    pageSize: int,
  });
});
export type ShieldPageInfo = Infer<typeof PageInfoSchema>;

const ZonePageSchema = lazySchema((z) => z.object({ data: z.array(ShieldZoneSchema.of(z)).nullish(), page: PageInfoSchema.of(z) }));
const ZoneSchema = lazySchema((z) => z.object({ data: ShieldZoneSchema.of(z) }));

export const ApiGuardianConfigurationSchema = lazySchema((z) => {
  const int = z.number().int();
  const text = z.string().nullish();
  return z.looseObject({
    shieldZoneId: int,
    isEnabled: z.boolean(),
    executionMode: int,
    bodyLimitAction: int,
    unmatchedPathAction: int,
    title: text,
    version: text,
    maxEndpoints: int,
    maxFieldsPerType: int,
    maxNestingDepth: int,
    maxTotalSchemaNodes: int,
    maxTotalRegexLength: int,
    createdAt: text,
    updatedAt: text,
  });
});
export type ApiGuardianConfiguration = Infer<typeof ApiGuardianConfigurationSchema>;

const ParameterGroupsSchema = lazySchema((z) =>
  z.looseObject({
    Path: z.array(z.string()).nullish(),
    Query: z.array(z.string()).nullish(),
    Header: z.array(z.string()).nullish(),
    Cookie: z.array(z.string()).nullish(),
  }),
);

export const ApiGuardianEndpointSchema = lazySchema((z) => {
  const int = z.number().int();
  const text = z.string().nullish();
  return z.looseObject({
    apiGuardianEndpointId: int,
    shieldZoneId: int.nullish(),
    requestMethod: text,
    requestPath: text,
    validateRequestBodySchema: z.boolean().nullish(),
    validateResponseBodySchema: z.boolean().nullish(),
    validateAuthorization: z.boolean().nullish(),
    isEnabled: z.boolean().nullish(),
    authSchemes: z.array(z.looseObject({ schemeName: text, schemeType: text, location: text, credentialName: text, httpScheme: text })).nullish(),
    availableParameters: ParameterGroupsSchema.of(z).nullish(),
    injectionDetectionParameters: ParameterGroupsSchema.of(z).nullish(),
    rateLimitingEnabled: z.boolean().nullish(),
    rateLimitingType: text,
    rateLimitingRequestCount: int.nullish(),
    rateLimitingTimeframe: int.nullish(),
  });
});
export type ApiGuardianEndpoint = Infer<typeof ApiGuardianEndpointSchema>;

export const ApiGuardianSchema = lazySchema((z) =>
  z.object({
    configuration: ApiGuardianConfigurationSchema.of(z),
    endpoints: z
      .array(ApiGuardianEndpointSchema.of(z))
      .nullish()
      .transform((e) => e ?? []),
  }),
);
export type ApiGuardian = Infer<typeof ApiGuardianSchema>;

/** `{error, data}`; data is checked after error, since a failure (even a 202) may come without it. */
const EnvelopeSchema = lazySchema((z) => {
  const text = z.string().nullish();
  const GenericResult = z.looseObject({ statusCode: z.number().int().nullish(), success: z.boolean().nullish(), message: text, errorKey: text });
  return z.object({ error: GenericResult.nullish(), data: z.unknown() });
});
type Envelope = Infer<typeof EnvelopeSchema>;

/** The fields PATCH .../api-guardian accepts; only the ones given are sent and changed. */
export interface ApiGuardianPatch {
  isEnabled?: boolean;
  executionMode?: number;
  bodyLimitAction?: number;
  unmatchedPathAction?: number;
}

const PATCH_ENUMS: Record<Exclude<keyof ApiGuardianPatch, 'isEnabled'>, Readonly<Record<number, string>>> = {
  executionMode: WAF_EXECUTION_MODE,
  bodyLimitAction: WAF_PAYLOAD_LIMIT_ACTION,
  unmatchedPathAction: UNMATCHED_PATH_ACTION,
};

const choices = (names: Readonly<Record<number, string>>) =>
  Object.entries(names)
    .map(([v, n]) => `${v} (${n})`)
    .join(', ');

export function checkApiGuardianPatch(patch: ApiGuardianPatch): Record<string, boolean | number> {
  const body: Record<string, boolean | number> = {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (key === 'isEnabled') {
      if (typeof value !== 'boolean') throw invalidInput(`isEnabled must be true or false (got ${String(value)})`);
      body.isEnabled = value;
    } else if (key in PATCH_ENUMS) {
      const names = PATCH_ENUMS[key as keyof typeof PATCH_ENUMS];
      if (typeof value !== 'number' || !(value in names)) throw invalidInput(`${key} must be one of ${choices(names)} (got ${String(value)})`);
      body[key] = value;
    } else {
      throw invalidInput(`"${key}" cannot be changed: the fields are isEnabled, executionMode, bodyLimitAction, unmatchedPathAction`);
    }
  }
  if (Object.keys(body).length === 0)
    throw invalidInput('nothing to update: give at least one of isEnabled, executionMode, bodyLimitAction, unmatchedPathAction');
  return body;
}

const zoneId = (id: unknown) => checkId('shield zone id', id, INT32_MAX);

/** Shield and API Guardian (`{base}/shield`). */
export class ShieldApi {
  constructor(private readonly http: HttpClient) {}

  /** One page of shield zones (page from 1, perPage 1..1000, API default 10). */
  async listZones(page = 1, perPage = 10, signal?: AbortSignal): Promise<{ zones: ShieldZone[]; page: ShieldPageInfo }> {
    checkWhole('page', page, 1, INT32_MAX);
    checkWhole('perPage', perPage, 1, 1000);
    const res = await this.http.getJson('/shield/shield-zones', ZonePageSchema, { query: { page, perPage }, signal });
    return { zones: res.data ?? [], page: res.page };
  }

  /** Every zone, page after page. */
  async listAllZones(signal?: AbortSignal): Promise<ShieldZone[]> {
    const out: ShieldZone[] = [];
    for (let page = 1; page <= 10_000; page++) {
      const res = await this.listZones(page, 100, signal);
      out.push(...res.zones);
      if (res.page.nextPage === null || res.page.nextPage === undefined || res.zones.length === 0) break;
    }
    return out;
  }

  async getZone(id: number, signal?: AbortSignal): Promise<ShieldZone> {
    const res = await this.http.getJson(`/shield/shield-zone/${zoneId(id)}`, ZoneSchema, { signal });
    return res.data;
  }

  async getApiGuardian(id: number, signal?: AbortSignal): Promise<ApiGuardian> {
    const path = `/shield/shield-zone/${zoneId(id)}/api-guardian`;
    const res = await this.http.getJson(path, EnvelopeSchema, { signal });
    return unwrap(res, ApiGuardianSchema, 'GET', path);
  }

  /** PATCH with only the given fields; answers the whole configuration after the change. */
  async updateApiGuardian(id: number, patch: ApiGuardianPatch, signal?: AbortSignal): Promise<ApiGuardianConfiguration> {
    const path = `/shield/shield-zone/${zoneId(id)}/api-guardian`;
    const body = checkApiGuardianPatch(patch);
    const res = await this.http.request(path, { method: 'PATCH', body, schema: EnvelopeSchema, signal });
    return unwrap(res.data, ApiGuardianConfigurationSchema, 'PATCH', path);
  }

  /** First upload of an OpenAPI document (JSON or YAML text). enforceAuth defaults to true on the server. */
  uploadSpec(id: number, content: string, enforceAuth?: boolean, signal?: AbortSignal): Promise<ApiGuardian> {
    return this.sendSpec('POST', id, content, enforceAuth, signal);
  }

  /** Replaces the uploaded document; without enforceAuth each endpoint keeps its auth setting. */
  replaceSpec(id: number, content: string, enforceAuth?: boolean, signal?: AbortSignal): Promise<ApiGuardian> {
    return this.sendSpec('PATCH', id, content, enforceAuth, signal);
  }

  private async sendSpec(method: 'POST' | 'PATCH', id: number, content: string, enforceAuth: boolean | undefined, signal?: AbortSignal): Promise<ApiGuardian> {
    const path = `/shield/shield-zone/${zoneId(id)}/api-guardian/spec`;
    if (typeof content !== 'string' || content.trim() === '')
      throw invalidInput('the specification is empty: give the text of an OpenAPI 3 document (JSON or YAML)');
    if (enforceAuth !== undefined && typeof enforceAuth !== 'boolean') throw invalidInput('enforceAuthorizationValidation must be true or false');
    const body: Record<string, unknown> = { content };
    if (enforceAuth !== undefined) body.enforceAuthorizationValidation = enforceAuth;
    const res = await this.http.request(path, { method, body, schema: EnvelopeSchema, signal });
    return unwrap(res.data, ApiGuardianSchema, method, path);
  }
}

/** A 2xx envelope that still says it failed becomes an ApiError like any other. */
async function unwrap<T>(res: Envelope, schema: LazySchema<z.ZodType<T>>, method: string, path: string): Promise<T> {
  const e = res.error;
  if (e && e.success === false) {
    throw new ApiError({
      kind: 'http',
      status: e.statusCode ?? null,
      code: e.errorKey ?? null,
      method,
      path,
      message: `${e.statusCode ?? ''} ${e.errorKey ?? 'error'}: ${e.message ?? 'the operation failed'}`.trim(),
    });
  }
  const parsed = (await schema.load()).safeParse(res.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? `data.${issue.path.join('.')}` : 'data';
    throw new ApiError({
      kind: 'malformed',
      method,
      path,
      message: `unexpected answer from ${method} ${path}: ${where}: ${issue?.message ?? 'does not match'}`,
    });
  }
  keepRawJson(parsed.data, res.data);
  return parsed.data;
}
