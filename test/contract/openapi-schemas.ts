import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Validators built from the component schemas of the platform's OpenAPI documents. OpenAPI 3.0
 * `nullable: true` is turned into JSON Schema (type + "null", or anyOf with null), and `x-*`
 * vendor keys are dropped; everything else is taken as the document says.
 */

const DOCS = {
  shield: '/work/shared/openapi/shield-api.json',
  mc: '/work/shared/openapi/magic-containers-api.json',
  core: '/work/shared/openapi/core-api.json',
  database: '/work/shared/openapi/database-api.json',
} as const;
export type DocName = keyof typeof DOCS;

type J = unknown;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function toJsonSchema(v: J): J {
  if (Array.isArray(v)) return v.map(toJsonSchema);
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) {
    if (k.startsWith('x-') || k === 'nullable' || k === 'example') continue;
    // `properties` and `additionalProperties` maps hold schemas keyed by name: convert the values only.
    out[k] = k === 'properties' && isObj(val) ? Object.fromEntries(Object.entries(val).map(([n, s]) => [n, toJsonSchema(s)])) : toJsonSchema(val);
  }
  if (v.nullable === true) {
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
      return out;
    }
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

// ajv-formats is CommonJS; its default export arrives wrapped under tsx.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

const docs = new Map<DocName, Record<string, unknown>>();
function doc(name: DocName): Record<string, unknown> {
  let d = docs.get(name);
  if (!d) {
    d = JSON.parse(readFileSync(DOCS[name], 'utf8')) as Record<string, unknown>;
    docs.set(name, d);
  }
  return d;
}

let ajv: Ajv | null = null;
function getAjv(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('decimal', { type: 'number', validate: () => true });
  for (const name of Object.keys(DOCS) as DocName[]) {
    ajv.addSchema({ $id: `https://burrow.test/${name}.json`, components: toJsonSchema((doc(name) as { components: unknown }).components) });
  }
  return ajv;
}

const cache = new Map<string, ValidateFunction>();
function compiled(ref: string): ValidateFunction {
  let v = cache.get(ref);
  if (!v) {
    v = getAjv().compile({ $ref: ref });
    cache.set(ref, v);
  }
  return v;
}

function explain(v: ValidateFunction): string {
  return (v.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('; ');
}

/** Validates against components/schemas/NAME of a document; returns '' when valid, else why not. */
export function checkSchema(docName: DocName, schemaName: string, value: unknown): string {
  if (
    !isObj((doc(docName).components as Record<string, unknown>)?.schemas) ||
    !(doc(docName).components as { schemas: Record<string, unknown> }).schemas[schemaName]
  ) {
    throw new Error(`${docName} has no component schema ${schemaName}`);
  }
  const v = compiled(`https://burrow.test/${docName}.json#/components/schemas/${schemaName}`);
  return v(value) ? '' : `${schemaName}: ${explain(v)}`;
}

/**
 * The JSON schema the document declares for one response (path as written in the document,
 * e.g. "/shield/shield-zone/{shieldZoneId}"). null when the document gives that status no body.
 */
export function documentedResponse(docName: DocName, path: string, method: string, status: number): { schema: Record<string, unknown> } | null {
  const paths = doc(docName).paths as Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> }>
  >;
  const op = paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${docName} has no ${method} ${path}`);
  const res = op.responses?.[String(status)];
  if (!res) throw new Error(`${docName} ${method} ${path} documents no ${status} response`);
  const schema = res.content?.['application/json']?.schema;
  return schema ? { schema } : null;
}

/** Validates a body against the documented response schema; returns '' when valid. */
export function checkResponse(docName: DocName, path: string, method: string, status: number, value: unknown): string {
  const d = documentedResponse(docName, path, method, status);
  if (!d) throw new Error(`${docName} ${method} ${path} ${status} has no JSON body in the document`);
  const schema = toJsonSchema(d.schema) as Record<string, unknown>;
  // Local refs point into the document's components, which ajv knows under the document's $id.
  const rewritten = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, `"https://burrow.test/${docName}.json#/components/`)) as Record<
    string,
    unknown
  >;
  const key = `${docName} ${method} ${path} ${status}`;
  let v = cache.get(key);
  if (!v) {
    v = getAjv().compile(rewritten);
    cache.set(key, v);
  }
  return v(value) ? '' : `${key}: ${explain(v)}`;
}
