import { measuredText, problemText, type SpecCheck } from '../shield-spec/limits';
import { renderTable } from './output';
import { limitCheckCells } from '../renderers/spec-check';

// What `shield check-spec` prints, and `shield spec upload` before it refuses a file over the limits.

/** The measured-vs-allowed table, as plain text. */
export function checkTable(check: SpecCheck): string {
  // the console's spec panel shows the same cells
  return renderTable(check.checks.map(limitCheckCells), [
    { header: 'LIMIT', value: (c: ReturnType<typeof limitCheckCells>) => c.label },
    { header: 'MEASURED', value: (c) => c.measured },
    { header: 'ALLOWED', value: (c) => c.allowed },
    { header: 'STATUS', value: (c) => c.status },
    { header: 'WHERE', value: (c) => c.where },
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
