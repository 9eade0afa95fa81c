import type { ZoneLive } from '../../state/logs/store';
import { terminalSafe } from '../../text/terminal-safe';
import { duration, type Part } from './status-view';

/**
 * The zone strip under the status line when several zones are followed: each zone's state,
 * history progress, budget and error, e.g.
 * "1058 shop-assets ● 12/28 · 1199 video-edge ◌ history 40% 28/28 · 1411 ✖ 403 Forbidden …".
 * Zones in trouble come first, so a narrow terminal cuts the healthy ones, never a failure.
 */

/** Zones in trouble go first; the others keep their order (a backfill ending does not move a zone). */
const TROUBLE: Record<ZoneLive['state'], number> = {
  failed: 0,
  'rate-limited': 1,
  retrying: 2,
  starting: 3,
  backfilling: 3,
  paused: 3,
  following: 3,
  stopped: 3,
};

function historyShare(z: ZoneLive): string {
  const p = z.backfill;
  if (!p || p.remaining === null) return 'history …';
  const total = p.records + p.remaining;
  return `history ${total ? Math.floor((p.records / total) * 100) : 100}%`;
}

/** One zone: name, state, budget. */
export function zoneParts(z: ZoneLive, name: string | undefined, now: number): Part[] {
  const label = `${z.zoneId}${name ? ` ${terminalSafe(name)}` : ''}`;
  const budget: Part = { text: ` ${z.budgetUsed}/${z.budgetLimit}`, tone: z.budgetUsed >= z.budgetLimit ? 'warn' : 'muted' };
  const backoff = z.backoffUntil !== null && z.backoffUntil > now ? z.backoffUntil - now : 0;
  switch (z.state) {
    case 'failed':
      return [{ text: `${label} ✖ ${z.error ?? 'failed'}`, tone: 'error' }];
    case 'rate-limited':
      return [{ text: `${label} 429 rate limited${backoff ? `, retry in ${duration(backoff)}` : ''}`, tone: 'warn' }, budget];
    case 'retrying':
      return [{ text: `${label} ↻ retrying: ${z.error ?? 'request failed'}`, tone: 'warn' }, budget];
    case 'starting':
      return [{ text: `${label} starting…`, tone: 'muted' }, budget];
    case 'backfilling':
      return [{ text: `${label} ◌ ${z.coveredTo === null ? 'loading…' : historyShare(z)}`, tone: 'info' }, budget];
    case 'paused':
      return [{ text: `${label} ❚❚`, tone: 'warn' }, budget];
    case 'following':
      return [{ text: `${label} ● following`, tone: 'ok' }, budget];
    case 'stopped':
      return [{ text: `${label} stopped`, tone: 'muted' }];
  }
}

/** Every zone, the troubled ones first (then in the order given). */
export function zoneStripParts(zones: readonly ZoneLive[], names: Readonly<Record<number, string>>, now: number): Part[] {
  const order = zones.map((z, i) => ({ z, i })).sort((a, b) => TROUBLE[a.z.state] - TROUBLE[b.z.state] || a.i - b.i);
  const parts: Part[] = [];
  for (const { z } of order) {
    if (parts.length) parts.push({ text: ' · ', tone: 'muted' });
    parts.push(...zoneParts(z, names[z.zoneId], now));
  }
  return parts;
}
