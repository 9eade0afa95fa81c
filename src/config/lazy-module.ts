/**
 * A dynamic import that works both bundled and unbundled: in the esbuild bundle a CommonJS
 * package arrives as the namespace's `default`, under tsx as named exports. `probe` is an
 * export that must exist.
 */
export async function lazyModule<T extends object>(load: () => Promise<T>, probe: keyof T & string): Promise<T> {
  const namespace = await load();
  if (namespace[probe] !== undefined) return namespace;
  const inner = (namespace as { default?: T }).default;
  if (inner && inner[probe] !== undefined) return inner;
  throw new Error(`module loaded without its ${probe} export`);
}
