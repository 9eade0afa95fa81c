/**
 * Reading an OpenAPI document the way API Guardian does before it measures it. The rules are
 * the platform's (as the emulator documents them); this is burrow's own implementation, so a
 * spec can be checked before it is sent. Pure functions: text in, document or SpecProblem out.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** The document cannot be read as an OpenAPI 3 specification; the message says why. */
export class SpecProblem extends Error {
  override readonly name = 'SpecProblem';
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethodName = (typeof HTTP_METHODS)[number];

/** Containers (objects and arrays) may nest this deep; deeper documents are refused. */
export const MAX_DOCUMENT_DEPTH = 200;
/** A chain of more $refs than this (parameter, request body, response) is circular. */
export const MAX_REF_HOPS = 20;

export interface Endpoint {
  method: HttpMethodName;
  path: string;
  operation: JsonObject;
  /** Path-item and operation parameters, $refs followed. */
  parameters: JsonObject[];
}

export interface OpenApiDocument {
  root: JsonObject;
  format: 'json' | 'yaml';
  title: string;
  version: string;
  endpoints: Endpoint[];
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const clip = (s: string, n = 100) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * A fresh JSON tree: YAML aliases become copies (so every node has one parent), non-finite
 * numbers become null as in JSON. Refuses cycles (recursive YAML aliases) and nesting deeper
 * than MAX_DOCUMENT_DEPTH containers.
 */
export function plainTree(value: unknown, depth = 1, ancestors = new Set<object>()): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'object') return null;
  if (ancestors.has(value)) throw new SpecProblem('the specification has a recursive YAML alias (an anchor used inside itself)');
  if (depth > MAX_DOCUMENT_DEPTH) throw new SpecProblem(`the specification is nested more than ${MAX_DOCUMENT_DEPTH} levels deep`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => plainTree(v, depth + 1, ancestors));
    const entries: [string, JsonValue][] = [];
    for (const [k, v] of Object.entries(value)) if (v !== undefined && typeof v !== 'function') entries.push([k, plainTree(v, depth + 1, ancestors)]);
    // fromEntries defines own properties, so a "__proto__" key stays a plain key
    return Object.fromEntries(entries) as JsonObject;
  } finally {
    ancestors.delete(value);
  }
}

/** Follows a local JSON pointer ("#/components/schemas/Pet"); external refs are refused. */
export function followPointer(root: JsonObject, ref: string): JsonValue {
  if (!ref.startsWith('#'))
    throw new SpecProblem(`$ref "${clip(ref)}" points outside the document: only local refs ("#/...") are allowed, so bundle the specification into one file`);
  const pointer = ref.slice(1);
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) throw new SpecProblem(`$ref "${clip(ref)}" is not a JSON pointer (it must look like "#/components/schemas/Name")`);
  let at: JsonValue = root;
  for (const token of pointer.slice(1).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      throw new SpecProblem(`$ref "${clip(ref)}" has a bad %-escape`);
    }
    if (Array.isArray(at) && /^\d+$/.test(key) && Number(key) < at.length) at = at[Number(key)]!;
    else if (isObject(at) && Object.hasOwn(at, key)) at = at[key]!;
    else throw new SpecProblem(`$ref "${clip(ref)}" does not resolve: nothing at "${clip(key, 60)}"`);
  }
  return at;
}

const refOf = (v: JsonValue | undefined): string | null => (isObject(v) && typeof v.$ref === 'string' ? v.$ref : null);

/** A parameter, request body or response given as a $ref: followed to what it names. */
export function derefObject(root: JsonObject, value: JsonValue | undefined): JsonValue | undefined {
  let v = value;
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    const ref = refOf(v);
    if (ref === null) return v;
    v = followPointer(root, ref);
  }
  const ref = refOf(v);
  if (ref !== null) throw new SpecProblem(`$ref "${clip(ref)}" is circular: a chain of more than ${MAX_REF_HOPS} $refs never reaches an object`);
  return v;
}

/** Every "$ref" string anywhere in the document must resolve. */
function checkAllRefs(root: JsonObject): void {
  const todo: JsonValue[] = [root];
  while (todo.length) {
    const v = todo.pop()!;
    if (Array.isArray(v)) {
      for (const x of v) todo.push(x);
    } else if (isObject(v)) {
      if (typeof v.$ref === 'string') followPointer(root, v.$ref);
      for (const x of Object.values(v)) todo.push(x);
    }
  }
}

function parameters(root: JsonObject, list: JsonValue | undefined): JsonObject[] {
  if (!Array.isArray(list)) return [];
  const out: JsonObject[] = [];
  for (const p of list) {
    const v = derefObject(root, p);
    if (isObject(v)) out.push(v);
  }
  return out;
}

/**
 * Validates a parsed document (see read-text.ts for the text) as OpenAPI 3 and lists its
 * endpoints; throws SpecProblem with the reason.
 */
export function openApiFromValue(value: JsonValue, format: 'json' | 'yaml'): OpenApiDocument {
  if (!isObject(value))
    throw new SpecProblem(
      `the file must hold one ${format === 'json' ? 'JSON' : 'YAML'} object (an OpenAPI document), not ${Array.isArray(value) ? 'a list' : value === null ? 'nothing' : `a ${typeof value}`}`,
    );
  const root = value;
  if (typeof root.openapi !== 'string' || !root.openapi.startsWith('3.')) {
    if (typeof root.swagger === 'string')
      throw new SpecProblem(`this is Swagger ${clip(root.swagger, 20)}: API Guardian takes OpenAPI 3.x documents (convert it first)`);
    throw new SpecProblem(
      `"openapi" must be a version string starting with "3." (got ${root.openapi === undefined ? 'nothing' : clip(JSON.stringify(root.openapi), 30)})`,
    );
  }
  const info = root.info;
  if (!isObject(info) || typeof info.title !== 'string' || typeof info.version !== 'string') {
    throw new SpecProblem('info.title and info.version must both be strings');
  }
  if (!isObject(root.paths)) throw new SpecProblem('"paths" must be an object of paths');
  checkAllRefs(root);
  const endpoints: Endpoint[] = [];
  for (const [path, item] of Object.entries(root.paths)) {
    if (path.startsWith('x-')) continue;
    if (!path.startsWith('/')) throw new SpecProblem(`path "${clip(path, 80)}" must start with "/"`);
    if (!isObject(item)) throw new SpecProblem(`the path item of "${clip(path, 80)}" must be an object`);
    const shared = parameters(root, item.parameters);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      // OpenAPI: an operation parameter replaces a path-item one with the same name and location
      // (and a later duplicate an earlier one)
      const byKey = new Map<string, JsonObject>();
      for (const p of [...shared, ...parameters(root, operation.parameters)]) byKey.set(`${String(p.in)}:${String(p.name)}`, p);
      endpoints.push({ method, path, operation, parameters: [...byKey.values()] });
    }
  }
  return { root, format, title: info.title, version: info.version, endpoints };
}
