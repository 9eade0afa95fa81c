import stringWidth from 'string-width';
import { terminalSafe } from '../text/terminal-safe';

/**
 * Terminal cells, for tables and result grids: CJK and most emoji take two cells, combining marks none.
 * string-width is the function Ink measures with, so a grid and Ink agree on every line's width.
 * Strings made only of one-cell characters (printable ASCII, Latin, Greek and Cyrillic letters,
 * common punctuation, box drawing) skip its grapheme segmentation: most cells of a real result.
 */

// Latin, Greek, Cyrillic letters, punctuation (– — ‘ ’ “ ” …), currency, arrows, box drawing: each one
// cell (checked against string-width); no U+00AD (soft hyphen: zero cells), nothing that combines
const NARROW =
  /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u024f\u0370-\u03ff\u0400-\u0482\u048a-\u04ff\u1e00-\u1eff\u2010-\u2027\u2030-\u205e\u20a0-\u20c0\u2190-\u21ff\u2500-\u257f]*$/;

// made on first use: the first Intl.Segmenter in a process costs about 10 ms, and narrow text needs none
let segmenter: Intl.Segmenter | undefined;

export function cellWidth(s: string): number {
  return NARROW.test(s) ? s.length : stringWidth(s);
}

/** The string's graphemes with their widths (one code unit each on the fast path). */
function graphemes(s: string): { text: string; width: number }[] {
  if (NARROW.test(s)) return [...s].map((c) => ({ text: c, width: 1 }));
  const out: { text: string; width: number }[] = [];
  for (const { segment } of (segmenter ??= new Intl.Segmenter()).segment(s)) out.push({ text: segment, width: stringWidth(segment) });
  return out;
}

/**
 * The longest start of `s` that fits in `width` cells, and its width. A wide character that
 * would straddle the edge is left out whole (the caller pads).
 */
export function takeCells(s: string, width: number): { text: string; width: number } {
  if (width <= 0) return { text: '', width: 0 };
  if (NARROW.test(s)) return s.length <= width ? { text: s, width: s.length } : { text: s.slice(0, width), width };
  let text = '';
  let w = 0;
  for (const g of graphemes(s)) {
    if (w + g.width > width) break;
    text += g.text;
    w += g.width;
  }
  return { text, width: w };
}

/** `s` without its first `cells` cells; a wide character cut in half becomes a space. */
export function dropCells(s: string, cells: number): string {
  if (cells <= 0) return s;
  if (NARROW.test(s)) return s.slice(cells);
  let w = 0;
  let i = 0;
  const gs = graphemes(s);
  for (; i < gs.length && w < cells; i++) w += gs[i]!.width;
  const rest = gs
    .slice(i)
    .map((g) => g.text)
    .join('');
  return w > cells ? ' '.repeat(w - cells) + rest : rest;
}

/**
 * Cut to `width` cells with an ellipsis, then padded to exactly `width`; right alignment pads on the left.
 * Line breaks and tabs become spaces, other control characters visible escapes (terminalSafe).
 */
export function fitCells(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  const s = terminalSafe(/[\r\n\t]/.test(text) ? text.replace(/[\r\n\t]/g, ' ') : text);
  const full = cellWidth(s);
  let out = s;
  let w = full;
  if (full > width) {
    const cut = takeCells(s, width - 1);
    out = `${cut.text}…`;
    w = cut.width + 1;
  }
  const pad = width > w ? ' '.repeat(width - w) : '';
  return align === 'right' ? pad + out : out + pad;
}

/** `text` followed by spaces up to `width` cells (nothing cut). */
export function padCells(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const w = cellWidth(text);
  if (w >= width) return text;
  return align === 'right' ? ' '.repeat(width - w) + text : text + ' '.repeat(width - w);
}
