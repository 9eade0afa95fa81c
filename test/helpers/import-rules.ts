import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The layer rules of docs/ARCHITECTURE.md as data: for each part of src/ (a top-level folder,
 * or cli.ts), the other parts it may import. Imports inside one part are always allowed.
 * A part missing here is itself a violation, so a new folder has to be placed on the map.
 */
export const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  'cli.ts': ['commands', 'runtime', 'api', 'text', 'config'],
  commands: [
    'app',
    'state',
    'runtime',
    'renderers',
    'log-records',
    'logs-sql',
    'log-ship',
    'sql-repl',
    'shield-spec',
    'text',
    'api',
    'config',
    'emulator',
    'log-fields',
    'log-engine',
  ],
  app: ['screens', 'components', 'state', 'keys', 'renderers', 'sql-repl', 'text', 'runtime', 'api', 'config', 'log-engine'],
  screens: [
    'components',
    'state',
    'renderers',
    'log-records',
    'sql-repl',
    'shield-spec',
    'clipboard',
    'keys',
    'text',
    'api',
    'config',
    'log-fields',
    'log-engine',
  ],
  components: ['keys', 'text'],
  state: ['log-records', 'logs-sql', 'log-ship', 'sql-repl', 'shield-spec', 'keys', 'text', 'api', 'config', 'log-fields', 'log-engine'],
  renderers: ['shield-spec', 'text', 'api', 'config'],
  'log-records': ['text', 'api', 'config', 'log-fields', 'log-engine'],
  'logs-sql': ['text', 'api', 'config', 'log-fields', 'log-engine'],
  'log-ship': ['text', 'api', 'config', 'log-fields'],
  'sql-repl': ['keys', 'text', 'api', 'config'],
  'shield-spec': ['config'],
  clipboard: [],
  keys: [],
  runtime: ['api', 'text', 'config', 'emulator', 'log-engine'],
  'log-engine': ['api', 'text', 'config', 'log-fields'],
  api: ['text', 'config', 'log-fields'],
  text: ['config'],
  config: [],
  emulator: [],
  'log-fields': [],
};

export interface ImportEdge {
  /** Importing file, relative to the repository, e.g. "src/app/App.tsx". */
  from: string;
  /** Imported file, resolved the same way. */
  to: string;
  /** `import()`: loaded when first used, so it cannot take part in a load-order cycle. */
  lazy?: boolean;
}

/** The part of src/ a file belongs to: its top-level folder, or the file name at the top. */
export function partOf(file: string): string {
  return file.split('/')[1] ?? file;
}

/** Layer violations among `edges`, one line each: "from -> to (a may not import b)". */
export function layerViolations(edges: readonly ImportEdge[], rules: Readonly<Record<string, readonly string[]>> = MAY_IMPORT): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    const a = partOf(from);
    const b = partOf(to);
    if (a === b) continue;
    const allowed = rules[a];
    if (!allowed) out.push(`${from} -> ${to} (${a} is not on the map in ARCHITECTURE.md)`);
    else if (!allowed.includes(b)) out.push(`${from} -> ${to} (${a} may not import ${b})`);
  }
  return out;
}

/**
 * Import cycles among files, each as its sorted files joined by " <-> ". Type imports count (two
 * modules that need each other's types are one idea split in two), and so does a lazy `import()`:
 * it changes when a module loads, not which module depends on which (a registry whose entries
 * need the registry's data is given that data instead).
 */
export function importCycles(edges: readonly ImportEdge[]): string[] {
  const graph = new Map<string, string[]>();
  for (const { from, to } of edges) {
    graph.set(from, [...(graph.get(from) ?? []), to]);
    if (!graph.has(to)) graph.set(to, []);
  }
  // Tarjan's strongly connected components; a component of two or more files is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort().join(' <-> '));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort();
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(fromFile: string, spec: string): string | null {
  const base = path.join(path.dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The relative module specifiers a file imports (static, type, `export ... from`, `import()`). */
function importsOf(file: string): { spec: string; lazy: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { spec: string; lazy: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ spec: node.moduleSpecifier.text, lazy: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ spec: node.moduleSpecifier.text, lazy: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push({ spec: node.arguments[0].text, lazy: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out.filter((i) => i.spec.startsWith('.'));
}

/**
 * Every relative import of every .ts/.tsx file under `root`: static, `export ... from`, type-only
 * and dynamic `import()`. Unresolvable specifiers are returned in `unresolved` so a typo cannot
 * hide an edge.
 */
export function readImports(root = 'src'): { edges: ImportEdge[]; unresolved: string[] } {
  const edges: ImportEdge[] = [];
  const unresolved: string[] = [];
  for (const file of walk(root)) {
    for (const { spec, lazy } of importsOf(file)) {
      const target = resolve(file, spec);
      if (target) edges.push({ from: file.split(path.sep).join('/'), to: target.split(path.sep).join('/'), lazy });
      else unresolved.push(`${file}: ${spec}`);
    }
  }
  return { edges, unresolved };
}
