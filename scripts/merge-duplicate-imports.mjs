// Merges import declarations of one module into one (`import type { A }` and `import { b }` from
// 'm' become `import { b, type A } from 'm'`), in place. Usage:
//   node scripts/merge-duplicate-imports.mjs [file ...]   (default: src, test, bench)
// Only plain named/default imports are merged; a namespace import is left as it is.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : walk(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });

const files = process.argv.length > 2 ? process.argv.slice(2) : ['src', 'test', 'bench'].flatMap(walk);
let changed = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const groups = new Map();
  for (const st of source.statements) {
    if (!ts.isImportDeclaration(st) || !st.importClause || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const b = st.importClause.namedBindings;
    if (b && ts.isNamespaceImport(b)) continue;
    const spec = st.moduleSpecifier.text;
    groups.set(spec, [...(groups.get(spec) ?? []), st]);
  }
  const edits = [];
  for (const [spec, decls] of groups) {
    if (decls.length < 2) continue;
    const defaults = decls.map((d) => d.importClause.name?.text).filter(Boolean);
    if (new Set(defaults).size > 1) continue;
    const names = [];
    for (const d of decls) {
      const clauseType = d.importClause.isTypeOnly;
      const b = d.importClause.namedBindings;
      if (!b) continue;
      for (const el of b.elements) {
        const name = el.propertyName ? `${el.propertyName.text} as ${el.name.text}` : el.name.text;
        const entry = clauseType || el.isTypeOnly ? `type ${name}` : name;
        if (!names.includes(entry)) names.push(entry);
      }
    }
    const allTypes = defaults.length === 0 && names.every((n) => n.startsWith('type '));
    const list = allTypes ? names.map((n) => n.slice(5)) : names;
    const head = defaults.length ? `${defaults[0]}${list.length ? ', ' : ''}` : '';
    const quote = text[decls[0].moduleSpecifier.getStart(source)];
    const merged = `import ${allTypes ? 'type ' : ''}${head}${list.length ? `{ ${list.join(', ')} }` : ''} from ${quote}${spec}${quote};`;
    edits.push({ start: decls[0].getStart(source), end: decls[0].getEnd(), text: merged });
    for (const d of decls.slice(1)) {
      let end = d.getEnd();
      if (text[end] === '\n') end++;
      edits.push({ start: d.getFullStart() === d.getStart(source) ? d.getStart(source) : d.getStart(source), end, text: '' });
    }
  }
  if (!edits.length) continue;
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  writeFileSync(file, out);
  changed++;
  console.log(file);
}
console.log(`${changed} files changed`);
