import { measuredText, type LimitCheck } from '../shield-spec/limits';
import type { Tone } from '../text/tone';

/**
 * A row of the spec check's measured-vs-allowed table, as the console's spec panel and
 * `burrow shield check-spec` print it; over-limit rows are red and say OVER.
 */
export function limitCheckCells(c: LimitCheck): { label: string; measured: string; allowed: string; status: string; where: string; tone: Tone | undefined } {
  return {
    label: c.label,
    measured: measuredText(c),
    allowed: String(c.allowed),
    status: c.over ? 'OVER' : 'ok',
    where: c.limit === 'maxTotalSchemaNodes' ? '' : (c.where ?? ''),
    tone: c.over ? 'error' : undefined,
  };
}
