import { parse as parseYaml } from 'yaml';

/**
 * How the emulator reads an uploaded OpenAPI document and measures it against the API Guardian
 * plan limits. burrow's client-side checker (`burrow shield check-spec`) implements the SAME rules
 * independently; keep the two in step. The definitions:
 *
 * Document. `content` is parsed as JSON when its first non-blank character is `{`, else as YAML
 * (YAML aliases are expanded; a recursive alias is refused). It must be an object with `openapi`
 * a string starting with "3.", `info.title` and `info.version` strings, and `paths` an object.
 * Nesting deeper than 200 levels of objects/arrays is refused. Any `$ref` must be local
 * ("#/..." JSON pointer, with ~0 ~1 and %-escapes) and must resolve; otherwise the spec is invalid.
 *
 * Operations (endpoints). Every key of `paths` not starting with "x-" is a path (it must start
 * with "/"); every member of its path item named get, put, post, delete, options, head, patch or
 * trace whose value is an object is one endpoint. maxEndpoints is compared with their count.
 *
 * Schema objects. Roots are (a) every value of `components.schemas` and (b) for every operation:
 * `schema` and every `content.*.schema` of each parameter (path-item parameters and operation
 * parameters; a parameter given as $ref is resolved first), every `requestBody.content.*.schema`
 * and every `responses.*.content.*.schema` (request bodies and responses given as $ref are
 * resolved first; a chain of more than 20 such $refs is circular and the spec is invalid). The structural children of a schema object s (plain objects only; boolean
 * schemas are ignored) are: each value of s.properties, s.items (or each element when it is an
 * array), s.additionalProperties, each element of s.allOf / s.anyOf / s.oneOf, and s.not.
 * A structural walk never follows $ref.
 *
 * maxFieldsPerType: the largest number of keys of `properties` in any schema object reached by a
 * structural walk from all roots (a) and (b).
 *
 * maxNestingDepth: depth(s) = the maximum of 0 and
 *   1 + depth(v) for each value v of s.properties,
 *   1 + depth(s.items) (each element when items is an array),
 *   1 + depth(target) when s.$ref is a string (the ref is followed),
 *   depth(m) for m in s.allOf / s.anyOf / s.oneOf, s.not and s.additionalProperties;
 * measured = the maximum of depth(root) over all roots (a) and (b). A $ref chain that comes back
 * to a schema it is already inside is recursion: the depth is unbounded and exceeds every limit.
 * (Depths are not followed beyond 1000; such a spec is reported as deeper than 1000.)
 *
 * maxTotalSchemaNodes: the sum, over the entries of components.schemas, of the schema objects
 * reached by a structural walk from that entry, the entry itself included ({$ref} objects count
 * as one node and are not followed).
 *
 * maxTotalRegexLength: the sum of the lengths (JavaScript string length, UTF-16 code units) of
 * every string value of a member named `pattern`, in any object anywhere in the document.
 */

export interface PlanLimits {
  maxEndpoints: number;
  maxFieldsPerType: number;
  maxNestingDepth: number;
  maxTotalSchemaNodes: number;
  maxTotalRegexLength: number;
}

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export const MAX_RAW_DEPTH = 200;
export const MAX_FOLLOWED_DEPTH = 1000;

export interface SpecOperation {
  method: (typeof HTTP_METHODS)[number];
  path: string;
  operation: Obj;
  /** Path-item and operation parameters, $refs resolved. */
  parameters: Obj[];
}

export interface ParsedSpec {
  doc: Obj;
  title: string;
  version: string;
  operations: SpecOperation[];
}

export interface SpecMeasures {
  endpoints: number;
  fieldsPerType: number;
  /** Where the widest schema is, e.g. "components.schemas.Order". */
  fieldsWhere: string | null;
  /** Infinity for recursive $ref chains. */
  nestingDepth: number;
  nestingNote: string | null;
  totalSchemaNodes: number;
  totalRegexLength: number;
}

export class SpecError extends Error {}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function rawDepthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
  }
  return false;
}

export function parseSpecText(content: string): ParsedSpec {
  if (content.trim() === '') throw new SpecError('the specification is empty');
  let value: unknown;
  if (content.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(content);
    } catch (e) {
      throw new SpecError(`the specification is not valid JSON: ${(e as Error).message}`);
    }
  } else {
    try {
      value = parseYaml(content, { maxAliasCount: 100 });
    } catch (e) {
      throw new SpecError(`the specification is neither JSON nor valid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    if (typeof value === 'object' && value !== null) {
      // A recursive alias also shows up here, as unbounded depth.
      if (rawDepthExceeds(value, MAX_RAW_DEPTH))
        throw new SpecError(`the specification is nested more than ${MAX_RAW_DEPTH} levels deep (or has a recursive YAML alias)`);
      // Expands aliases into copies, so every object below has exactly one parent.
      value = JSON.parse(JSON.stringify(value));
    }
  }
  if (!isObj(value)) throw new SpecError('the specification must be a JSON or YAML object (an OpenAPI document)');
  if (rawDepthExceeds(value, MAX_RAW_DEPTH)) throw new SpecError(`the specification is nested more than ${MAX_RAW_DEPTH} levels deep`);
  const doc = value;
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.')) {
    throw new SpecError(
      typeof doc.swagger === 'string' ? 'Swagger 2.0 is not supported: upload an OpenAPI 3.x document' : 'the document has no "openapi" version 3.x',
    );
  }
  const info = doc.info;
  if (!isObj(info) || typeof info.title !== 'string' || typeof info.version !== 'string') {
    throw new SpecError('info.title and info.version are required strings');
  }
  if (!isObj(doc.paths)) throw new SpecError('"paths" must be an object');
  checkRefs(doc);
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (path.startsWith('x-')) continue;
    if (!path.startsWith('/')) throw new SpecError(`path "${path.slice(0, 80)}" must begin with "/"`);
    if (!isObj(item)) throw new SpecError(`paths["${path.slice(0, 80)}"] must be an object`);
    const shared = parameterList(doc, item.parameters);
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const own = parameterList(doc, op.parameters);
      const byKey = new Map<string, Obj>();
      for (const p of [...shared, ...own]) byKey.set(`${String(p.in)}:${String(p.name)}`, p);
      operations.push({ method, path, operation: op, parameters: [...byKey.values()] });
    }
  }
  return { doc, title: info.title, version: info.version, operations };
}

function parameterList(doc: Obj, value: Json | undefined): Obj[] {
  if (!Array.isArray(value)) return [];
  return value.map((p) => resolveOnce(doc, p)).filter(isObj);
}

/** Resolves a {$ref} object (one level of indirection per step); a chain longer than 20 is circular. */
export function resolveOnce(doc: Obj, value: Json | undefined): Json | undefined {
  let v = value;
  for (let i = 0; i < 20 && isObj(v) && typeof v.$ref === 'string'; i++) v = resolvePointer(doc, v.$ref);
  if (isObj(v) && typeof v.$ref === 'string') throw new SpecError(`$ref "${v.$ref.slice(0, 120)}" is circular (it never reaches an object)`);
  return v;
}

export function resolvePointer(doc: Obj, ref: string): Json {
  if (!ref.startsWith('#')) throw new SpecError(`external $ref "${ref.slice(0, 120)}" is not supported: upload a self-contained specification`);
  let target: Json = doc;
  const raw = ref.slice(1);
  if (raw === '') return doc;
  if (!raw.startsWith('/')) throw new SpecError(`$ref "${ref.slice(0, 120)}" is not a JSON pointer`);
  for (const part of raw.slice(1).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      throw new SpecError(`$ref "${ref.slice(0, 120)}" is not a valid JSON pointer`);
    }
    if (Array.isArray(target) && /^\d+$/.test(key) && Number(key) < target.length) target = target[Number(key)]!;
    else if (isObj(target) && Object.prototype.hasOwnProperty.call(target, key)) target = target[key]!;
    else throw new SpecError(`$ref "${ref.slice(0, 120)}" does not resolve`);
  }
  return target;
}

/** Every $ref anywhere must be local and resolve. */
function checkRefs(doc: Obj): void {
  const stack: Json[] = [doc];
  while (stack.length) {
    const v = stack.pop()!;
    if (Array.isArray(v)) stack.push(...v);
    else if (isObj(v)) {
      if (typeof v.$ref === 'string') resolvePointer(doc, v.$ref);
      stack.push(...Object.values(v));
    }
  }
}

/** Structural children of a schema object (see the definitions above). */
export function schemaChildren(s: Obj): Obj[] {
  const out: Obj[] = [];
  if (isObj(s.properties)) for (const v of Object.values(s.properties)) if (isObj(v)) out.push(v);
  if (Array.isArray(s.items))
    for (const v of s.items) {
      if (isObj(v)) out.push(v);
    }
  else if (isObj(s.items)) out.push(s.items);
  if (isObj(s.additionalProperties)) out.push(s.additionalProperties);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (Array.isArray(list)) for (const v of list) if (isObj(v)) out.push(v);
  }
  if (isObj(s.not)) out.push(s.not);
  return out;
}

interface Root {
  where: string;
  schema: Obj;
}

function contentSchemas(content: Json | undefined, where: string, out: Root[]): void {
  if (!isObj(content)) return;
  for (const [type, media] of Object.entries(content))
    if (isObj(media) && isObj(media.schema)) out.push({ where: `${where}.content["${type}"].schema`, schema: media.schema });
}

export function schemaRoots(spec: ParsedSpec): { components: Root[]; operations: Root[] } {
  const doc = spec.doc;
  const components: Root[] = [];
  const comp = doc.components;
  if (isObj(comp) && isObj(comp.schemas)) {
    for (const [name, s] of Object.entries(comp.schemas)) if (isObj(s)) components.push({ where: `components.schemas.${name}`, schema: s });
  }
  const operations: Root[] = [];
  for (const op of spec.operations) {
    const at = `${op.method.toUpperCase()} ${op.path}`;
    for (const p of op.parameters) {
      if (isObj(p.schema)) operations.push({ where: `${at} parameter ${String(p.name)}`, schema: p.schema });
      contentSchemas(p.content, `${at} parameter ${String(p.name)}`, operations);
    }
    const body = resolveOnce(doc, op.operation.requestBody);
    if (isObj(body)) contentSchemas(body.content, `${at} requestBody`, operations);
    const responses = op.operation.responses;
    if (isObj(responses)) {
      for (const [status, r] of Object.entries(responses)) {
        const res = resolveOnce(doc, r);
        if (isObj(res)) contentSchemas(res.content, `${at} responses.${status}`, operations);
      }
    }
  }
  return { components, operations };
}

class Recursion extends Error {
  constructor(readonly chain: string[]) {
    super('recursive $ref');
  }
}
class TooDeep extends Error {}

export function measureSpec(spec: ParsedSpec): SpecMeasures {
  const { components, operations } = schemaRoots(spec);
  const all = [...components, ...operations];

  let fieldsPerType = 0;
  let fieldsWhere: string | null = null;
  for (const root of all) {
    const stack: Obj[] = [root.schema];
    while (stack.length) {
      const s = stack.pop()!;
      const n = isObj(s.properties) ? Object.keys(s.properties).length : 0;
      if (n > fieldsPerType) {
        fieldsPerType = n;
        fieldsWhere = root.where;
      }
      stack.push(...schemaChildren(s));
    }
  }

  let totalSchemaNodes = 0;
  for (const root of components) {
    const stack: Obj[] = [root.schema];
    while (stack.length) {
      totalSchemaNodes++;
      stack.push(...schemaChildren(stack.pop()!));
    }
  }

  let totalRegexLength = 0;
  const walk: Json[] = [spec.doc];
  while (walk.length) {
    const v = walk.pop()!;
    if (Array.isArray(v)) walk.push(...v);
    else if (isObj(v)) {
      if (typeof v.pattern === 'string') totalRegexLength += v.pattern.length;
      walk.push(...Object.values(v));
    }
  }

  let nestingDepth = 0;
  let nestingNote: string | null = null;
  const memo = new Map<Obj, number>();
  const onChain = new Set<Obj>();
  const refNames: string[] = [];
  const depth = (s: Obj, level: number): number => {
    const known = memo.get(s);
    if (known !== undefined) return known;
    if (level > MAX_FOLLOWED_DEPTH) throw new TooDeep();
    onChain.add(s);
    let best = 0;
    const deeper = (v: Json | undefined, add: number) => {
      if (isObj(v)) best = Math.max(best, add + depth(v, level + add));
    };
    if (isObj(s.properties)) for (const v of Object.values(s.properties)) deeper(v, 1);
    if (Array.isArray(s.items)) for (const v of s.items) deeper(v, 1);
    else deeper(s.items, 1);
    if (typeof s.$ref === 'string') {
      const target = resolvePointer(spec.doc, s.$ref);
      if (isObj(target)) {
        if (onChain.has(target)) throw new Recursion([...refNames, s.$ref]);
        refNames.push(s.$ref);
        deeper(target, 1);
        refNames.pop();
      }
    }
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = s[k];
      if (Array.isArray(list)) for (const v of list) deeper(v, 0);
    }
    deeper(s.not, 0);
    deeper(s.additionalProperties, 0);
    onChain.delete(s);
    memo.set(s, best);
    return best;
  };
  for (const root of all) {
    try {
      const d = depth(root.schema, 0);
      if (d > nestingDepth) {
        nestingDepth = d;
        nestingNote = root.where;
      }
    } catch (e) {
      if (e instanceof Recursion) {
        nestingDepth = Number.POSITIVE_INFINITY;
        nestingNote = `recursive $ref chain from ${root.where}: ${e.chain.join(' -> ')}`;
        break;
      }
      if (e instanceof TooDeep) {
        nestingDepth = MAX_FOLLOWED_DEPTH + 1;
        nestingNote = `${root.where} is nested deeper than ${MAX_FOLLOWED_DEPTH}`;
        break;
      }
      throw e;
    } finally {
      onChain.clear();
      refNames.length = 0;
    }
  }

  return { endpoints: spec.operations.length, fieldsPerType, fieldsWhere, nestingDepth, nestingNote, totalSchemaNodes, totalRegexLength };
}

export interface LimitViolation {
  limit: keyof PlanLimits;
  measured: number;
  allowed: number;
  text: string;
}

/** Every limit the measures exceed, each with a sentence saying measured vs allowed. */
export function limitViolations(m: SpecMeasures, limits: PlanLimits): LimitViolation[] {
  const out: LimitViolation[] = [];
  const add = (limit: keyof PlanLimits, measured: number, what: string) => {
    const allowed = limits[limit];
    if (measured > allowed) out.push({ limit, measured, allowed, text: `${limit}: ${what}, allowed ${allowed}` });
  };
  add('maxEndpoints', m.endpoints, `${m.endpoints} endpoints`);
  add('maxFieldsPerType', m.fieldsPerType, `${m.fieldsPerType} properties in one schema${m.fieldsWhere ? ` (${m.fieldsWhere})` : ''}`);
  add(
    'maxNestingDepth',
    m.nestingDepth,
    m.nestingDepth === Number.POSITIVE_INFINITY
      ? `unbounded nesting (${m.nestingNote})`
      : `nesting depth ${m.nestingDepth > MAX_FOLLOWED_DEPTH ? `more than ${MAX_FOLLOWED_DEPTH}` : m.nestingDepth}${m.nestingNote ? ` (${m.nestingNote})` : ''}`,
  );
  add('maxTotalSchemaNodes', m.totalSchemaNodes, `${m.totalSchemaNodes} schema nodes in components/schemas`);
  add('maxTotalRegexLength', m.totalRegexLength, `${m.totalRegexLength} characters of pattern regexes`);
  return out;
}
