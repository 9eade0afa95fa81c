import { cellWidth, dropCells, fitCells } from './cells';
import { terminalSafe } from '../text/terminal-safe';

/** Cuts to `width` terminal cells with an ellipsis, then pads; right alignment pads on the left. */
export const fit = fitCells;

/** Cuts from the left ("…tail") to `width` cells, for breadcrumbs and paths where the end matters most; controls escaped. */
export function fitLeft(outside: string, width: number): string {
  const text = terminalSafe(outside);
  const w = cellWidth(text);
  if (w <= width) return text;
  if (width <= 1) return '…'.slice(0, Math.max(0, width));
  return '…' + dropCells(text, w - (width - 1));
}

/** "3s ago", "2m ago", "1h 5m ago". */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.floor(m / 60);
  return `${h}h ${m % 60}m ago`;
}
