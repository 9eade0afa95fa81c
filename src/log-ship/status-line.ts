import type { BudgetState } from '../api/rate-limit';
import { fit } from '../text/fit';
import type { ZoneShipStatus } from './zone-shipper';

const human = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(Math.round(n));

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  return `${(s / 3600).toFixed(1)}h`;
}

/** The live line on a terminal: per zone its lag, records/s, stored, backlog and budget. */
export function statusLine(
  zones: readonly ZoneShipStatus[],
  now: number,
  rate: (zone: number) => number,
  budget: (zone: number) => BudgetState,
  columns: number,
): string {
  const parts = zones.map((z) => {
    const b = budget(z.zone);
    const state = z.state === 'following' || z.state === 'backfilling' ? '' : ` ${z.state}`;
    const rejected = z.rejected > 0 ? ` rejected ${human(z.rejected)}` : '';
    return `${z.zone}${state}: lag ${duration(now - z.cursor)} ${human(rate(z.zone))}/s stored ${human(z.stored)}${rejected} backlog ${human(z.backlog)} budget ${b.used}/${b.limit}`;
  });
  return fit(parts.join(' | '), Math.max(20, columns - 1));
}
