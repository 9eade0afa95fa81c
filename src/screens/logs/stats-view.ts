import { sparkline } from '../../components/Sparkline';
import { formatBytes } from '../../log-records/rows';
import type { CountRow, StatsSnapshot } from '../../log-records/stats';
import { type Part, duration } from './status-view';

/**
 * The statistics panel as lines of parts, for a given size: beside the stream (tall: top lists
 * one entry per line) or below it (compact: one line per section).
 */

const n = (x: number) => x.toLocaleString('en-US');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const CLASS_TONES = ['muted', 'ok', 'info', 'warn', 'error', 'muted'] as const;
const CLASS_NAMES = ['1xx', '2xx', '3xx', '4xx', '5xx', 'other'];

function countList(rows: CountRow[]): string {
  return rows.map((r) => `${r.key} ${n(r.count)}`).join(' · ');
}

export function statsLines(s: StatsSnapshot | null, width: number, height: number, tall: boolean): Part[][] {
  if (!s) return [[{ text: 'statistics: waiting for records…', tone: 'muted' }]];
  const lines: Part[][] = [];
  const span = s.oldest !== null && s.newest !== null ? duration(s.newest - s.oldest) : '0s';
  lines.push([
    { text: 'Stats', tone: 'accent' },
    { text: ` ${n(s.records)} record${s.records === 1 ? '' : 's'} over ${span} · ${formatBytes(s.bytes)} served`, tone: 'muted' },
  ]);
  const rateLabel = `req/s ${s.ratePerSecond.toFixed(1)} `;
  lines.push([{ text: rateLabel }, { text: sparkline(s.rate, Math.max(4, width - rateLabel.length), { fromZero: true }), tone: 'accent' }]);
  const classes: Part[] = [{ text: 'status ' }];
  s.statusClasses.forEach((c, i) => {
    if (c === 0 && i === 5) return;
    classes.push({ text: `${CLASS_NAMES[i]} ${n(c)}`, tone: c > 0 ? CLASS_TONES[i] : 'muted' });
    classes.push({ text: ' ' });
  });
  lines.push(classes);
  lines.push([
    { text: 'hit ratio ' },
    {
      text: s.hitRatio === null ? '—' : pct(s.hitRatio),
      tone: s.hitRatio === null ? 'muted' : s.hitRatio >= 0.8 ? 'ok' : s.hitRatio >= 0.5 ? 'warn' : 'error',
    },
    { text: ` HIT of ${n(s.cacheable)} with a cache status`, tone: 'muted' },
  ]);
  if (tall) {
    lines.push([{ text: 'cache', tone: 'accent' }]);
    const w = Math.max(5, ...s.cache.map((c) => c.key.length));
    for (const c of s.cache) {
      lines.push([{ text: `  ${c.key.padEnd(w)} ${n(c.count).padStart(8)} ${pct(c.count / Math.max(1, s.records)).padStart(6)}` }]);
    }
  } else {
    lines.push([{ text: 'cache ' }, { text: s.cache.map((c) => `${c.key} ${n(c.count)}`).join(' · ') }]);
  }
  const lists: [string, CountRow[]][] = [
    ['paths', s.topPaths],
    ['IPs', s.topIps],
    ['countries', s.topCountries],
    ['edges', s.topEdges],
  ];
  // several zones merged: records per zone first
  if (s.topZones.length > 1) lists.unshift(['zones', s.topZones]);
  // Beside the stream: as many entries per list as the height allows (at least 2, else one line each).
  const perList = tall ? Math.min(5, Math.floor((height - lines.length) / lists.length) - 1) : 0;
  for (const [label, rows] of lists) {
    if (tall && perList >= 2) {
      lines.push([{ text: `top ${label}`, tone: 'accent' }]);
      for (const r of rows.slice(0, perList)) lines.push([{ text: `  ${n(r.count).padStart(7)}  ${r.key}` }]);
    } else {
      lines.push([{ text: `${label} `, tone: 'accent' }, { text: countList(rows) }]);
    }
  }
  if (tall && lines.length > height) return statsLines(s, width, height, false);
  return lines.slice(0, Math.max(1, height));
}

/** Lines the compact panel needs (below the stream). */
export const COMPACT_STATS_LINES = 9;

/** Lines the compact panel needs: one more for the zones list when several zones are followed. */
export function compactStatsLines(zones: number): number {
  return COMPACT_STATS_LINES + (zones > 1 ? 1 : 0);
}
