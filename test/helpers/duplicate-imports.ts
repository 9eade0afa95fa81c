import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The TypeScript files under the given folders. */
export function tsFiles(dirs: readonly string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : walk(full);
      return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
    });
  return dirs.flatMap(walk);
}

/**
 * Modules a file imports in more than one import declaration, as "file: module". A type import
 * and a value import of one module are one declaration too (`import { a, type B } from 'm'`).
 * Side-effect imports (`import 'm'`) and namespace imports next to named ones are left alone.
 */
export function duplicateImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const st of source.statements) {
    if (!ts.isImportDeclaration(st) || !st.importClause || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const bindings = st.importClause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) continue;
    const spec = st.moduleSpecifier.text;
    if (seen.has(spec)) out.push(`${file}: ${spec}`);
    seen.add(spec);
  }
  return out;
}
