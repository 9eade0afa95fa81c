import { stringify as toYaml } from 'yaml';
import { resolveOnce, type Json, type ParsedSpec, type SpecOperation } from './spec-limits';

/** ApiGuardianEndpointDetails. */
export interface GuardianEndpoint {
  apiGuardianEndpointId: number;
  shieldZoneId: number;
  requestMethod: string;
  requestPath: string;
  validateRequestBodySchema: boolean;
  validateResponseBodySchema: boolean;
  validateAuthorization: boolean;
  isEnabled: boolean;
  authSchemes: AuthScheme[] | null;
  requestBodySchemaYaml: string | null;
  responseBodySchemasYaml: Record<string, string> | null;
  availableParameters: ParameterGroups;
  injectionDetectionParameters: ParameterGroups | null;
  detectParameterXss: boolean;
  detectParameterSqli: boolean;
  rateLimitingEnabled: boolean;
  rateLimitingType: 'Global' | 'IP';
  rateLimitingRequestCount: number;
  rateLimitingTimeframe: number;
  createdAt: string;
  updatedAt: string | null;
}

export interface AuthScheme {
  schemeName: string;
  schemeType: 'ApiKey' | 'Http' | 'OAuth2' | 'OpenIdConnect';
  location: 'Header' | 'Query' | 'Cookie';
  credentialName: string | null;
  httpScheme: string | null;
}

export interface ParameterGroups {
  Path: string[];
  Query: string[];
  Header: string[];
  Cookie: string[];
}

type Obj = { [k: string]: Json };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function firstContentSchema(content: Json | undefined): Json | null {
  if (!isObj(content)) return null;
  for (const media of Object.values(content)) if (isObj(media) && media.schema !== undefined) return media.schema;
  return null;
}

function authSchemes(spec: ParsedSpec, op: SpecOperation): AuthScheme[] | null {
  const requirements = op.operation.security ?? spec.doc.security;
  if (!Array.isArray(requirements)) return null;
  const comp = spec.doc.components;
  const defs = isObj(comp) && isObj(comp.securitySchemes) ? comp.securitySchemes : {};
  const out: AuthScheme[] = [];
  const seen = new Set<string>();
  for (const req of requirements) {
    if (!isObj(req)) continue;
    for (const name of Object.keys(req)) {
      const def = resolveOnce(spec.doc, defs[name]);
      if (!isObj(def) || seen.has(name)) continue;
      seen.add(name);
      const type = String(def.type);
      if (type === 'apiKey') {
        const where = def.in === 'query' ? 'Query' : def.in === 'cookie' ? 'Cookie' : 'Header';
        out.push({ schemeName: name, schemeType: 'ApiKey', location: where, credentialName: typeof def.name === 'string' ? def.name : null, httpScheme: null });
      } else if (type === 'http') {
        out.push({
          schemeName: name,
          schemeType: 'Http',
          location: 'Header',
          credentialName: 'Authorization',
          httpScheme: typeof def.scheme === 'string' ? def.scheme.toLowerCase() : null,
        });
      } else if (type === 'oauth2' || type === 'openIdConnect') {
        out.push({
          schemeName: name,
          schemeType: type === 'oauth2' ? 'OAuth2' : 'OpenIdConnect',
          location: 'Header',
          credentialName: 'Authorization',
          httpScheme: 'bearer',
        });
      }
    }
  }
  return out.length ? out : null;
}

/** Injection-detection parameters must stay a subset of the available ones. */
function keepAvailable(chosen: ParameterGroups, available: ParameterGroups): ParameterGroups {
  const pick = (k: keyof ParameterGroups) => chosen[k].filter((n) => available[k].includes(n));
  return { Path: pick('Path'), Query: pick('Query'), Header: pick('Header'), Cookie: pick('Cookie') };
}

/**
 * The endpoints API Guardian derives from a spec: one per (path, method). `previous` keeps ids and,
 * when `enforceAuth` is null (a replace without the flag), each endpoint's validateAuthorization.
 */
export function deriveEndpoints(
  spec: ParsedSpec,
  shieldZoneId: number,
  enforceAuth: boolean | null,
  previous: GuardianEndpoint[],
  nextId: () => number,
  nowIso: string,
): GuardianEndpoint[] {
  const before = new Map(previous.map((e) => [`${e.requestMethod} ${e.requestPath}`, e]));
  return spec.operations.map((op) => {
    const method = op.method.toUpperCase();
    const old = before.get(`${method} ${op.path}`);
    const schemes = authSchemes(spec, op);
    const groups: ParameterGroups = { Path: [], Query: [], Header: [], Cookie: [] };
    for (const p of op.parameters) {
      const key = p.in === 'path' ? 'Path' : p.in === 'query' ? 'Query' : p.in === 'header' ? 'Header' : p.in === 'cookie' ? 'Cookie' : null;
      if (key && typeof p.name === 'string') groups[key].push(p.name);
    }
    const body = resolveOnce(spec.doc, op.operation.requestBody);
    const bodySchema = isObj(body) ? firstContentSchema(body.content) : null;
    const responses: Record<string, string> = {};
    if (isObj(op.operation.responses)) {
      for (const [status, r] of Object.entries(op.operation.responses)) {
        const res = resolveOnce(spec.doc, r);
        const schema = isObj(res) ? firstContentSchema(res.content) : null;
        if (schema !== null) responses[status] = toYaml(schema);
      }
    }
    const hasResponses = Object.keys(responses).length > 0;
    const validateAuth = enforceAuth === null ? (old ? old.validateAuthorization : schemes !== null) : enforceAuth && schemes !== null;
    return {
      apiGuardianEndpointId: old?.apiGuardianEndpointId ?? nextId(),
      shieldZoneId,
      requestMethod: method,
      requestPath: op.path,
      validateRequestBodySchema: old?.validateRequestBodySchema ?? bodySchema !== null,
      validateResponseBodySchema: old?.validateResponseBodySchema ?? false,
      validateAuthorization: validateAuth,
      isEnabled: old?.isEnabled ?? true,
      authSchemes: schemes,
      requestBodySchemaYaml: bodySchema === null ? null : toYaml(bodySchema),
      responseBodySchemasYaml: hasResponses ? responses : null,
      availableParameters: groups,
      injectionDetectionParameters: old?.injectionDetectionParameters ? keepAvailable(old.injectionDetectionParameters, groups) : null,
      detectParameterXss: old?.detectParameterXss ?? false,
      detectParameterSqli: old?.detectParameterSqli ?? false,
      rateLimitingEnabled: old?.rateLimitingEnabled ?? false,
      rateLimitingType: old?.rateLimitingType ?? 'Global',
      rateLimitingRequestCount: old?.rateLimitingRequestCount ?? 100,
      rateLimitingTimeframe: old?.rateLimitingTimeframe ?? 60,
      createdAt: old?.createdAt ?? nowIso,
      updatedAt: old ? nowIso : null,
    };
  });
}
