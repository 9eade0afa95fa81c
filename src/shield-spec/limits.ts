import { SpecProblem, type OpenApiDocument } from './document';
import { DEPTH_CAP, measureDocument, type SpecMeasurement } from './measure';

/** The plan limits of a zone's API Guardian (from its configuration). */
export interface PlanLimits {
  maxEndpoints: number;
  maxFieldsPerType: number;
  maxNestingDepth: number;
  maxTotalSchemaNodes: number;
  maxTotalRegexLength: number;
}

export type LimitName = keyof PlanLimits;

/** One line of "measured vs allowed". */
export interface LimitCheck {
  limit: LimitName;
  /** What a person calls it: "endpoints", "fields per schema"... */
  label: string;
  measured: number;
  allowed: number;
  over: boolean;
  /** Where the measured value comes from, when it helps (the widest schema, the deepest chain). */
  where: string | null;
}

export interface SpecCheck {
  title: string;
  version: string;
  format: 'json' | 'yaml';
  measurement: SpecMeasurement;
  checks: LimitCheck[];
  withinLimits: boolean;
}

export const LIMIT_LABELS: Record<LimitName, string> = {
  maxEndpoints: 'endpoints',
  maxFieldsPerType: 'fields per schema',
  maxNestingDepth: 'nesting depth',
  maxTotalSchemaNodes: 'schema nodes',
  maxTotalRegexLength: 'regex length',
};

export function compareWithLimits(m: SpecMeasurement, limits: PlanLimits): LimitCheck[] {
  const row = (limit: LimitName, measured: number, where: string | null): LimitCheck => ({
    limit,
    label: LIMIT_LABELS[limit],
    measured,
    allowed: limits[limit],
    over: measured > limits[limit],
    where,
  });
  return [
    row('maxEndpoints', m.endpoints, null),
    row('maxFieldsPerType', m.fieldsPerType, m.fieldsWhere),
    row('maxNestingDepth', m.nestingDepth, m.nestingWhere),
    row('maxTotalSchemaNodes', m.totalSchemaNodes, 'components/schemas'),
    row('maxTotalRegexLength', m.totalRegexLength, null),
  ];
}

/** "12", "unbounded", "more than 1000". */
export function measuredText(c: Pick<LimitCheck, 'limit' | 'measured'>): string {
  if (c.measured === Number.POSITIVE_INFINITY) return 'unbounded';
  if (c.limit === 'maxNestingDepth' && c.measured > DEPTH_CAP) return `more than ${DEPTH_CAP}`;
  return String(c.measured);
}

/** One sentence per limit that is exceeded: what was measured, where, and what is allowed (`endpoints: 12 endpoints (path + method); the plan allows 10 (maxEndpoints)`). */
export function problemText(c: LimitCheck): string {
  const what: Record<LimitName, string> = {
    maxEndpoints: `${measuredText(c)} endpoints (path + method)`,
    maxFieldsPerType: `a schema with ${measuredText(c)} properties`,
    maxNestingDepth: c.measured === Number.POSITIVE_INFINITY ? 'unbounded nesting' : `nesting depth ${measuredText(c)}`,
    maxTotalSchemaNodes: `${measuredText(c)} schema nodes in components/schemas`,
    maxTotalRegexLength: `${measuredText(c)} characters of "pattern" regexes`,
  };
  const where = c.where && c.limit !== 'maxTotalSchemaNodes' ? ` (${c.where})` : '';
  // led by the limit's label, as the console's table and verdict name it; the platform's key after
  return `${c.label}: ${what[c.limit]}${where}; the plan allows ${c.allowed} (${c.limit})`;
}

export function checkDocument(doc: OpenApiDocument, limits: PlanLimits): SpecCheck {
  const measurement = measureDocument(doc);
  const checks = compareWithLimits(measurement, limits);
  return { title: doc.title, version: doc.version, format: doc.format, measurement, checks, withinLimits: checks.every((c) => !c.over) };
}

export { SpecProblem };
