import { measuredText, problemText, type LimitCheck, type SpecCheck } from '../shield-spec/limits';
import { renderTable } from './output';

// What `shield check-spec` prints, and `shield spec upload` before it refuses a file over the limits.

/** The measured-vs-allowed table, as plain text. */
export function checkTable(check: SpecCheck): string {
  return renderTable(check.checks, [
    { header: 'LIMIT', value: (c: LimitCheck) => c.limit },
    { header: 'MEASURED', value: (c) => measuredText(c) },
    { header: 'ALLOWED', value: (c) => c.allowed },
    { header: 'STATUS', value: (c) => (c.over ? 'OVER' : 'ok') },
    { header: 'WHERE', value: (c) => (c.limit === 'maxTotalSchemaNodes' ? '' : c.where ?? '') },
  ]);
}

export function checkJson(check: SpecCheck, file: string, zoneId: number): unknown {
  return {
    file,
    shieldZoneId: zoneId,
    title: check.title,
    version: check.version,
    format: check.format,
    withinLimits: check.withinLimits,
    checks: check.checks.map((c) => ({
      limit: c.limit,
      // Infinity (a $ref cycle) has no JSON number: null, with the words in measuredText
      measured: Number.isFinite(c.measured) ? c.measured : null,
      measuredText: measuredText(c),
      allowed: c.allowed,
      over: c.over,
      where: c.where,
    })),
    problems: check.checks.filter((c) => c.over).map(problemText),
  };
}
