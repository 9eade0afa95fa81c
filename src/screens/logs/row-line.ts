import type { Segment } from '../../log-records/rows';

/**
 * A stream row as one string with its styles as SGR codes, drawn by a single <Text>. A <Text> per
 * coloured segment (about 8 per row, 300 on a page) made a page of new rows cost React and Yoga
 * 8-37 ms; one element per row is a few. The codes are the ones Ink's <Text> writes (chalk):
 * colour 3x/39, bold 1/22, underline 4/24, inverse 7/27.
 */

const FG: Record<string, number> = { black: 30, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, white: 37, gray: 90, grey: 90 };

export type ToneColor = (tone: Segment['tone'] | 'accent') => string | undefined;

function fg(color: string | undefined): [string, string] {
  const code = color === undefined ? undefined : FG[color];
  return code === undefined ? ['', ''] : [`\x1b[${code}m`, '\x1b[39m'];
}

/**
 * Not selected: each segment in its tone, matches accent + bold + inverse. Selected: the whole
 * line inverse without tones, matches accent + bold + underline (as the nested <Text>s did).
 */
export function rowLine(segments: readonly Segment[], selected: boolean, color: ToneColor): string {
  let out = '';
  // no colour at all with NO_COLOR / --no-color (the tones say so by giving none)
  const colours = color('accent') !== undefined;
  for (const s of segments) {
    if (s.text === '') continue;
    if (s.colour && colours && !selected && !s.mark) {
      const [open, close] = fg(s.colour);
      out += open + s.text + close;
    } else if (s.mark) {
      const [open, close] = fg(color('accent'));
      // in the order chalk nests them (colour inside bold inside underline/inverse)
      out += selected ? `\x1b[4m\x1b[1m${open}${s.text}${close}\x1b[22m\x1b[24m` : `\x1b[7m\x1b[1m${open}${s.text}${close}\x1b[22m\x1b[27m`;
    } else if (selected || s.tone === undefined) out += s.text;
    else {
      const [open, close] = fg(color(s.tone));
      out += open + s.text + close;
    }
  }
  return selected ? `\x1b[7m${out}\x1b[27m` : out;
}
