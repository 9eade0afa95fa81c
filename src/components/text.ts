/** Terminal-width helpers. Cells are counted as code points (wide CJK glyphs are not special-cased). */

export function textWidth(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

/** Cuts to `width` with an ellipsis, then pads; right alignment pads on the left. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  const chars = [...text.replace(/[\r\n\t]/g, ' ')];
  let out: string;
  if (chars.length > width) out = width === 1 ? '…' : chars.slice(0, width - 1).join('') + '…';
  else out = chars.join('');
  const pad = ' '.repeat(Math.max(0, width - textWidth(out)));
  return align === 'right' ? pad + out : out + pad;
}

/** Cuts from the left ("…tail"), for breadcrumbs and paths where the end matters most. */
export function fitLeft(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  return '…' + chars.slice(chars.length - width + 1).join('');
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
