// Build-time hooks (scripts/build.mjs) that keep hostile bytes from doing harm in Ink:
// 1. dom.js: every text node Ink draws goes through the console's sanitiser
//    (src/text/terminal-safe.ts, terminalSafeKeepingStyles). A control character or bidi override
//    that a screen forgot to escape is drawn as a visible escape, never sent to the terminal; the
//    views' own colour codes (SGR) pass. Screens still escape outside text themselves
//    (terminalSafe, the fit helpers): this is the net under them, so a new screen is safe by default.
// 2. hooks/use-input.js: a pasted or typed escape sequence that Ink reads as ctrl plus a key it has
//    no name for (`ESC [ 6 m`) made Ink call `undefined.startsWith` and the console crash; such a
//    key now arrives as no text.
// Each throws when its file is not the version it was written for, so an Ink upgrade fails the build.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const SANITISER = fileURLToPath(new URL('../src/text/terminal-safe.ts', import.meta.url));

function replaceOnce(source, file, from, to) {
  if (source.split(from).length !== 2)
    throw new Error(
      `ink/build/${file} is not the version scripts/ink-safe-text.mjs expects (Ink 6.8): ${JSON.stringify(from.slice(0, 50))} not found; update the patch`,
    );
  return source.replace(from, () => to);
}

export function patchDomText(source) {
  const body = replaceOnce(
    source,
    'dom.js',
    '    node.nodeValue = text;\n    markNodeAsDirty(node);',
    '    node.nodeValue = burrowTerminalSafe(text);\n    markNodeAsDirty(node);',
  );
  return `import { terminalSafeKeepingStyles as burrowTerminalSafe } from ${JSON.stringify(SANITISER)};\n${body}`;
}

export function patchUseInput(source) {
  return replaceOnce(
    source,
    'hooks/use-input.js',
    '            else if (keypress.ctrl) {\n                input = keypress.name;\n            }',
    "            else if (keypress.ctrl) {\n                input = keypress.name ?? '';\n            }",
  );
}

const PATCHES = { 'dom.js': patchDomText, 'hooks/use-input.js': patchUseInput };

export const inkSafeTextPlugin = {
  name: 'ink-safe-text',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/](dom|hooks[\\/]use-input)\.js$/ }, async (args) => {
      const rel = args.path.replace(/\\/g, '/').split('/node_modules/ink/build/')[1];
      return { contents: PATCHES[rel](await readFile(args.path, 'utf8')), loader: 'js' };
    });
  },
};
