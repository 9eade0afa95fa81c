/**
 * A short name for the prompt: `NAME` of libsql://NAME.lite.bunnydb.net, the `/db/NAME/` of a
 * path, else host:port (an IP or localhost says nothing shorter).
 */
export function databaseLabel(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const segments = u.pathname.split('/').filter(Boolean);
  const db = segments.indexOf('db');
  if (db >= 0 && segments[db + 1]) return decodeURIComponent(segments[db + 1]!);
  const host = u.hostname;
  if (/^[\d.]+$/.test(host) || host.includes(':') || host === 'localhost' || !host.includes('.')) return u.host;
  return host.split('.')[0]!;
}

/**
 * While a transaction is open the client pings the server this often (ms). Tests shorten it to
 * make the idle limit quick to cross: BURROW_SQL_KEEPALIVE_MS, read only when BURROW_TEST=1.
 */
export function keepAliveFromEnv(env: Record<string, string | undefined>): number | undefined {
  if (env.BURROW_TEST !== '1' || !env.BURROW_SQL_KEEPALIVE_MS) return undefined;
  const n = Number(env.BURROW_SQL_KEEPALIVE_MS);
  return Number.isFinite(n) && n >= 50 ? n : undefined;
}
