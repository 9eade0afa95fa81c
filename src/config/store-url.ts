/**
 * Where the log store is: `clickhouse://[user@]host[:port][/database]` (HTTP interface, port 8123
 * by default), the setting `--store-url` / BURROW_LOG_STORE / `logStore:`, and how a ClickHouse
 * client reaches it. Nothing here is about log records.
 */

/** Where the log store is, parsed. */
export interface StoreUrl {
  host: string;
  port: number;
  user: string;
  database: string;
  /** https when the URL says clickhouses:// (TLS, default port 8443). */
  secure: boolean;
}

export class StoreUrlError extends Error {}

const FORM = 'clickhouse://[user@]host[:port][/database]';

export function parseStoreUrl(text: string): StoreUrl {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new StoreUrlError(`the log store must be a URL like ${FORM}, got "${text}"`);
  }
  const secure = url.protocol === 'clickhouses:';
  if (url.protocol !== 'clickhouse:' && !secure) throw new StoreUrlError(`the log store must be a URL like ${FORM}, got "${url.protocol}//..."`);
  if (url.password) {
    throw new StoreUrlError(
      'a password in the store URL is refused (visible to other users in ps): set BURROW_LOG_STORE_PASSWORD or logStorePassword in the profile',
    );
  }
  if (!url.hostname) throw new StoreUrlError(`the log store URL names no host (${FORM})`);
  if (url.search || url.hash) throw new StoreUrlError(`the log store URL takes no query or fragment (${FORM})`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, '').replace(/\/$/, '')) || 'default';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new StoreUrlError(`database "${database}": letters, digits and _ only`);
  const port = url.port ? Number(url.port) : secure ? 8443 : 8123;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port, user: decodeURIComponent(url.username) || 'default', database, secure };
}

/** The HTTP base URL of the store's server (`host` may differ for another node of a cluster). */
function httpBase(store: StoreUrl, host = store.host): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return `${store.secure ? 'https' : 'http'}://${h}:${store.port}`;
}

/** The connection options of a ClickHouse client (@clickhouse/client's `url`, `username`, `password`) for the store, or another node of it. */
export function storeConnection(store: StoreUrl, password: string, host = store.host): { url: string; username: string; password: string } {
  return { url: httpBase(store, host), username: store.user, password };
}

/** `server:port` of the store, as a message names it. */
export function storeAddress(store: StoreUrl): string {
  return `${store.host.includes(':') ? `[${store.host}]` : store.host}:${store.port}`;
}

/** The URL as shown (never a password: it cannot hold one). */
export function showStoreUrl(store: StoreUrl): string {
  const h = store.host.includes(':') ? `[${store.host}]` : store.host;
  return `${store.secure ? 'clickhouses' : 'clickhouse'}://${store.user}@${h}:${store.port}/${store.database}`;
}
