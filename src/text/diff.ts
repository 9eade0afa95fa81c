import { isSecretField, maskSecret } from '../config/redact';

/** One line of "what will be sent": a changed, added or removed field. */
export interface DiffLine {
  kind: 'changed' | 'added' | 'removed';
  path: string;
  before?: string;
  after?: string;
}

type Flat = Map<string, string>;

function show(value: unknown, key: string): string {
  if (typeof value === 'string') return isSecretField(key) ? maskSecret(value) : JSON.stringify(value);
  if (value === undefined) return 'undefined';
  return JSON.stringify(value);
}

function flatten(value: unknown, path: string, key: string, out: Flat): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) out.set(path, '{}');
    for (const [k, v] of entries) flatten(v, path ? `${path}.${k}` : k, k, out);
    return;
  }
  out.set(path || '(value)', show(value, key));
}

/**
 * Field-by-field difference between the current record and what will be sent. Arrays are
 * compared whole (a region list is one value to a person). Secret-named fields are masked.
 * With `patch`, `after` is a partial body: fields it leaves out are unchanged, not removed.
 */
export function diffValues(before: unknown, after: unknown, options: { patch?: boolean } = {}): DiffLine[] {
  const a: Flat = new Map();
  const b: Flat = new Map();
  flatten(before ?? {}, '', '', a);
  flatten(after ?? {}, '', '', b);
  const lines: DiffLine[] = [];
  for (const [path, value] of b) {
    const old = a.get(path);
    if (old === undefined) lines.push({ kind: 'added', path, after: value });
    else if (old !== value) lines.push({ kind: 'changed', path, before: old, after: value });
  }
  if (options.patch) return lines;
  for (const [path, value] of a) if (!b.has(path)) lines.push({ kind: 'removed', path, before: value });
  return lines;
}

export function diffLineText(l: DiffLine): string {
  if (l.kind === 'added') return `+ ${l.path}: ${l.after}`;
  if (l.kind === 'removed') return `- ${l.path}: ${l.before}`;
  return `~ ${l.path}: ${l.before} → ${l.after}`;
}
