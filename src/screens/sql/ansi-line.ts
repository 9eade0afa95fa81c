import type { ViewKind, ViewLine } from './transcript-view';

/**
 * A line of the SQL screen as one string with its styles as SGR codes, drawn by a single <Text>.
 * A <Text> per segment (17 for an 8-column row) made a page of new rows cost React and Ink
 * 10-30 ms; one string per row is one element, and the same row text is the same string, which
 * Ink's caches and React.memo recognise. The codes are the ones Ink's own <Text> writes (chalk).
 * Without colours (--no-color, NO_COLOR) the line is plain text: no bold or dim either (with
 * --no-color chalk wrote none; the meaning is in the text: NULL, the header above the rule).
 */

const FG: Record<string, number> = { black: 30, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, white: 37, gray: 90, grey: 90 };

export function ansiLine(line: ViewLine, color: (kind: ViewKind) => string | undefined, styled = true): string {
  let out = '';
  for (const s of line) {
    if (s.text === '') continue;
    if (!styled) {
      out += s.text;
      continue;
    }
    let open = '';
    let close = '';
    if (s.kind === 'null') {
      open += '\x1b[2m';
      close = '\x1b[22m' + close;
    }
    const c = color(s.kind);
    const code = c === undefined ? undefined : FG[c];
    if (code !== undefined) {
      open += `\x1b[${code}m`;
      close = '\x1b[39m' + close;
    }
    if (s.kind === 'header') {
      open += '\x1b[1m';
      close = '\x1b[22m' + close;
    }
    if (s.kind === 'cursor') {
      open += '\x1b[7m';
      close = '\x1b[27m' + close;
    }
    out += open + s.text + close;
  }
  return out;
}
