import type { BackfillProgress } from '../../log-engine/index';

const n = (v: number) => v.toLocaleString('en-US');

function eta(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/**
 * The history still loading behind the newest records, as one line of at most `width` cells:
 * "history ████████░░░░ 62% · 1,240,000 records · 124 pages · 28,000/s · ETA 45s". Empty when
 * there is no backfill running. Parts that do not fit are left out from the end.
 */
export function backfillBarText(p: BackfillProgress | null, width: number): string {
  if (!p || p.done || width < 12) return '';
  const total = p.remaining === null ? null : p.records + p.remaining;
  const share = total ? Math.min(1, p.records / total) : 0;
  const cells = Math.max(4, Math.min(20, Math.floor(width / 5)));
  const filled = Math.round(share * cells);
  const bar = total === null ? '░'.repeat(cells) : `${'█'.repeat(filled)}${'░'.repeat(cells - filled)}`;
  const parts = [
    `history ${bar} ${total === null ? '…' : `${Math.floor(share * 100)}%`}`,
    `${n(p.records)} records`,
    `${n(p.pages)} page${p.pages === 1 ? '' : 's'}`,
    `${n(p.ratePerSecond)}/s`,
    p.etaMs === null ? 'ETA …' : `ETA ${eta(p.etaMs)}`,
  ];
  let line = '';
  for (const part of parts) {
    const next = line ? `${line} · ${part}` : part;
    if (next.length > width) break;
    line = next;
  }
  return line;
}
