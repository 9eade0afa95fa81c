/**
 * Outside text (API answers, database values and errors, log records, file contents) made safe
 * to draw: nothing in it can drive the terminal. C0 controls, DEL, C1 controls (U+0080-U+009F:
 * 0x9b is CSI on some terminals) and bidi overrides/isolates (they reorder what follows on the
 * line) are shown as visible escapes, `\x1b`, `\x9b`, `\u202e`, so a hostile byte is seen, not
 * acted on. Clean text, the usual case, costs one regex test and comes back as the same string.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_ALL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// the same without \t and \n: text whose line breaks and tabs are its layout
// eslint-disable-next-line no-control-regex
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_KEEP_LINES_ALL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// in JSON text: what JSON.stringify leaves raw (it escapes C0 itself)
const JSON_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const JSON_UNSAFE_ALL = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `\x1b` for controls up to U+00FF, `\u202e` for the bidi controls. */
export function visibleEscape(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of outside text for the terminal: every control character, newlines included, as a visible escape. */
export function terminalSafe(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, visibleEscape) : text;
}

/** Outside text of several lines (a message, a file): newlines and tabs kept, every other control escaped. */
export function terminalSafeLines(text: string): string {
  return UNSAFE_KEEP_LINES.test(text) ? text.replace(UNSAFE_KEEP_LINES_ALL, visibleEscape) : text;
}

/** True when `text` holds something terminalSafe would escape. */
export function hasTerminalControls(text: string): boolean {
  return UNSAFE.test(text);
}

/**
 * A JSON text (from JSON.stringify) with DEL, C1 and bidi characters as `\u` escapes: the same
 * JSON value, and nothing raw that a terminal would act on (JSON.stringify escapes C0 already).
 * These characters can only be inside strings, where `\u0085` means the same as the raw one.
 */
export function jsonTerminalSafe(json: string): string {
  return JSON_UNSAFE.test(json) ? json.replace(JSON_UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

// what a command's output to a terminal may not hold raw: terminalSafeLines's set, but a CR that
// ends a line (CRLF, CSV's line end) is kept; a lone CR would let a line overwrite another
// eslint-disable-next-line no-control-regex
const UNSAFE_OUTPUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_OUTPUT_ALL = /\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A command's output on its way to a terminal (src/runtime/terminal-output.ts applies it to every
 * write): newlines, tabs and CRLF line ends kept, every other control a visible escape.
 */
export function terminalSafeOutput(text: string): string {
  return UNSAFE_OUTPUT.test(text) ? text.replace(UNSAFE_OUTPUT_ALL, visibleEscape) : text;
}

// eslint-disable-next-line no-control-regex
const NET_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const NET_UNSAFE_BUT_ESC = /[\u0000-\u0009\u000b-\u001a\u001c-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const STYLE_AT = /\u001b\[[0-9;:]*m/y;
// eslint-disable-next-line no-control-regex
const STYLE_OR_UNSAFE = /\u001b\[[0-9;:]*m|[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Every ESC in `text` starts a colour/style code. */
function onlyStyles(text: string): boolean {
  for (let i = text.indexOf('\u001b'); i >= 0; i = text.indexOf('\u001b', i + 1)) {
    STYLE_AT.lastIndex = i;
    if (!STYLE_AT.test(text)) return false;
  }
  return true;
}

/**
 * The last line of defence for text the console draws: like terminalSafeLines (newlines kept, tabs
 * escaped: Ink does not lay them out), but colour and style codes (SGR, `ESC [ ... m`) pass, since
 * the views build some lines with their styles inlined. Outside text is escaped before it gets
 * there (terminalSafe), so SGR codes that reach this point are the view's own. A styled line that
 * is otherwise clean comes back as the same string without being rewritten.
 */
export function terminalSafeKeepingStyles(text: string): string {
  if (!NET_UNSAFE.test(text)) return text;
  if (!NET_UNSAFE_BUT_ESC.test(text) && onlyStyles(text)) return text;
  return text.replace(STYLE_OR_UNSAFE, (m) => (m.length > 1 ? m : visibleEscape(m)));
}
