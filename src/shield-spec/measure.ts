import { derefObject, followPointer, isObject, type JsonObject, type JsonValue, type OpenApiDocument } from './document';

/**
 * The five quantities API Guardian's plan limits are about, measured on a parsed document:
 *
 * - endpoints: one per (path, HTTP method) operation.
 * - fieldsPerType: the most `properties` one schema object declares, over every schema object
 *   reachable structurally from the schema roots (components/schemas entries, and the parameter,
 *   request-body and response schemas of each operation).
 * - nestingDepth: how deep schemas nest, counting 1 per `properties` value, per `items` and per
 *   followed `$ref`; allOf/anyOf/oneOf/not/additionalProperties add nothing. A $ref cycle makes
 *   it unbounded.
 * - totalSchemaNodes: schema objects under components/schemas (structural walk, $ref not followed).
 * - totalRegexLength: characters (UTF-16 units) of every string `pattern` member anywhere.
 *
 * "Structural" children of a schema: properties values, items (or each of an items array),
 * additionalProperties, allOf/anyOf/oneOf members and not; objects only.
 */

export interface SchemaRoot {
  /** Where the root is, e.g. "components.schemas.Order" or "POST /orders requestBody application/json". */
  where: string;
  schema: JsonObject;
}

export interface SpecMeasurement {
  endpoints: number;
  fieldsPerType: number;
  /** The root under which the widest schema object was found. */
  fieldsWhere: string | null;
  /** Infinity when a $ref cycle makes the depth unbounded. */
  nestingDepth: number;
  /** The deepest root, or the cycle (e.g. "#/components/schemas/Node -> #/components/schemas/Node"). */
  nestingWhere: string | null;
  totalSchemaNodes: number;
  totalRegexLength: number;
}

/** Depths are followed this far; anything deeper is reported as DEPTH_CAP + 1. */
export const DEPTH_CAP = 1000;

export function structuralChildren(schema: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  const take = (v: JsonValue | undefined) => {
    if (isObject(v)) out.push(v);
  };
  if (isObject(schema.properties)) Object.values(schema.properties).forEach(take);
  if (Array.isArray(schema.items)) schema.items.forEach(take);
  else take(schema.items);
  take(schema.additionalProperties);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach(take);
  }
  take(schema.not);
  return out;
}

function mediaSchemas(content: JsonValue | undefined, where: string, out: SchemaRoot[]): void {
  if (!isObject(content)) return;
  for (const [mediaType, media] of Object.entries(content)) {
    if (isObject(media) && isObject(media.schema)) out.push({ where: `${where} ${mediaType}`, schema: media.schema });
  }
}

export function componentRoots(doc: OpenApiDocument): SchemaRoot[] {
  const components = doc.root.components;
  if (!isObject(components) || !isObject(components.schemas)) return [];
  const out: SchemaRoot[] = [];
  for (const [name, schema] of Object.entries(components.schemas)) if (isObject(schema)) out.push({ where: `components.schemas.${name}`, schema });
  return out;
}

export function operationRoots(doc: OpenApiDocument): SchemaRoot[] {
  const out: SchemaRoot[] = [];
  for (const ep of doc.endpoints) {
    const at = `${ep.method.toUpperCase()} ${ep.path}`;
    for (const p of ep.parameters) {
      const name = `${at} parameter ${typeof p.name === 'string' ? p.name : '?'}`;
      if (isObject(p.schema)) out.push({ where: name, schema: p.schema });
      mediaSchemas(p.content, name, out);
    }
    const body = derefObject(doc.root, ep.operation.requestBody);
    if (isObject(body)) mediaSchemas(body.content, `${at} requestBody`, out);
    const responses = ep.operation.responses;
    if (isObject(responses)) {
      for (const [status, response] of Object.entries(responses)) {
        const r = derefObject(doc.root, response);
        if (isObject(r)) mediaSchemas(r.content, `${at} response ${status}`, out);
      }
    }
  }
  return out;
}

function* walk(schema: JsonObject): Generator<JsonObject> {
  const todo = [schema];
  while (todo.length) {
    const s = todo.pop()!;
    yield s;
    for (const c of structuralChildren(s)) todo.push(c);
  }
}

function regexLength(root: JsonValue): number {
  let total = 0;
  const todo: JsonValue[] = [root];
  while (todo.length) {
    const v = todo.pop()!;
    if (Array.isArray(v)) {
      for (const x of v) todo.push(x);
    } else if (isObject(v)) {
      if (typeof v.pattern === 'string') total += v.pattern.length;
      for (const x of Object.values(v)) todo.push(x);
    }
  }
  return total;
}

class Cycle {
  constructor(readonly refs: string[]) {}
}
class Deep {}

/**
 * Depth of every root, with memo (a shared schema is measured once) and cycle detection
 * (three colours: a node reached again while it is still being measured is a cycle).
 */
function nesting(doc: OpenApiDocument, roots: SchemaRoot[]): { depth: number; where: string | null } {
  const done = new Map<JsonObject, number>();
  const active = new Set<JsonObject>();
  const refs: string[] = [];
  const depthOf = (s: JsonObject, level: number): number => {
    const known = done.get(s);
    if (known !== undefined) return known;
    if (active.has(s)) throw new Cycle([...refs]);
    if (level > DEPTH_CAP) throw new Deep();
    active.add(s);
    let best = 0;
    const via = (child: JsonValue | undefined, step: number) => {
      if (isObject(child)) best = Math.max(best, step + depthOf(child, level + step));
    };
    if (isObject(s.properties)) for (const v of Object.values(s.properties)) via(v, 1);
    if (Array.isArray(s.items)) for (const v of s.items) via(v, 1);
    else via(s.items, 1);
    if (typeof s.$ref === 'string') {
      refs.push(s.$ref);
      via(followPointer(doc.root, s.$ref), 1);
      refs.pop();
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = s[key];
      if (Array.isArray(list)) for (const v of list) via(v, 0);
    }
    via(s.not, 0);
    via(s.additionalProperties, 0);
    active.delete(s);
    done.set(s, best);
    return best;
  };
  let depth = 0;
  let where: string | null = null;
  for (const root of roots) {
    try {
      const d = depthOf(root.schema, 0);
      if (d > depth) {
        depth = d;
        where = root.where;
      }
    } catch (e) {
      if (e instanceof Cycle) {
        const chain = e.refs.length ? e.refs.join(' -> ') : 'a schema that contains itself';
        return { depth: Number.POSITIVE_INFINITY, where: `$ref cycle under ${root.where}: ${chain}` };
      }
      if (e instanceof Deep) return { depth: DEPTH_CAP + 1, where: `${root.where} nests deeper than ${DEPTH_CAP}` };
      throw e;
    }
  }
  return { depth, where };
}

export function measureDocument(doc: OpenApiDocument): SpecMeasurement {
  const components = componentRoots(doc);
  const all = [...components, ...operationRoots(doc)];

  let fieldsPerType = 0;
  let fieldsWhere: string | null = null;
  for (const root of all) {
    for (const s of walk(root.schema)) {
      const n = isObject(s.properties) ? Object.keys(s.properties).length : 0;
      if (n > fieldsPerType) {
        fieldsPerType = n;
        fieldsWhere = root.where;
      }
    }
  }

  let totalSchemaNodes = 0;
  for (const root of components) for (const _ of walk(root.schema)) totalSchemaNodes++;

  const { depth, where } = nesting(doc, all);
  return {
    endpoints: doc.endpoints.length,
    fieldsPerType,
    fieldsWhere,
    nestingDepth: depth,
    nestingWhere: where,
    totalSchemaNodes,
    totalRegexLength: regexLength(doc.root),
  };
}
