// Build-time hook (scripts/build.mjs): every text node Ink draws goes through the console's
// sanitiser (src/text/terminal-safe.ts, terminalSafeKeepingStyles). A control character or bidi
// override that a screen forgot to escape is then drawn as a visible escape, never sent to the
// terminal; the views' own colour codes (SGR) pass. Screens still escape outside text themselves
// (terminalSafe, the fit helpers): this is the net under them, so a new screen is safe by default.
// Throws when Ink's dom.js is not the version it was written for, so an upgrade fails the build.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const SANITISER = fileURLToPath(new URL('../src/text/terminal-safe.ts', import.meta.url));
const ANCHOR = '    node.nodeValue = text;\n    markNodeAsDirty(node);';

export function patchDomText(source) {
  if (source.split(ANCHOR).length !== 2) throw new Error('ink/build/dom.js is not the version scripts/ink-safe-text.mjs expects (Ink 6.8): setTextNodeValue not found; update the patch');
  const body = source.replace(ANCHOR, () => '    node.nodeValue = burrowTerminalSafe(text);\n    markNodeAsDirty(node);');
  return `import { terminalSafeKeepingStyles as burrowTerminalSafe } from ${JSON.stringify(SANITISER)};\n${body}`;
}

export const inkSafeTextPlugin = {
  name: 'ink-safe-text',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]dom\.js$/ }, async (args) => ({
      contents: patchDomText(await readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};
