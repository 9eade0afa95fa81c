import { ApiError } from '../errors';
import { registerSecret } from '../../config/redact';

/** Where a database answers and with which token. */
export interface DatabaseTarget {
  /** The http(s) base the pipeline paths are resolved against; always ends with `/`. */
  baseUrl: string;
  /** The URL to show: no token, no query. */
  displayUrl: string;
  authToken: string | null;
}

const TOKEN_PARAMS = ['authToken', 'auth_token', 'jwt'];

function invalid(message: string): ApiError {
  return new ApiError({ kind: 'invalid-input', message });
}

/**
 * Accepts `libsql://host/`, `https://`, `http://` (and `wss://`/`ws://`, which the platform's own
 * client maps to https/http). A token in `?authToken=` is taken out of the URL and used, ahead of
 * `fallbackToken`; it is registered as a secret so it never shows in messages or logs.
 */
export function parseDatabaseUrl(input: string, fallbackToken: string | null = null): DatabaseTarget {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`"${text.slice(0, 120)}" is not a database URL: use libsql://NAME.lite.bunnydb.net, https://... or http://...`);
  }
  let tokenFromUrl: string | null = null;
  for (const p of TOKEN_PARAMS) {
    const v = url.searchParams.get(p);
    if (v !== null) {
      if (v.trim() !== '') tokenFromUrl = v.trim();
      url.searchParams.delete(p);
    }
  }
  registerSecret(tokenFromUrl);
  const tls = url.searchParams.get('tls');
  url.searchParams.delete('tls');
  const extra = [...url.searchParams.keys()];
  if (extra.length)
    throw invalid(`unsupported query parameter${extra.length > 1 ? 's' : ''} in the database URL: ${extra.join(', ')} (only authToken and tls are understood)`);
  if (url.username || url.password) throw invalid('put the token in ?authToken= or SERVICE_DATABASE_AUTH_TOKEN, not as user:password in the database URL');
  let protocol: 'http:' | 'https:';
  switch (url.protocol) {
    case 'libsql:':
    case 'wss:':
      protocol = tls === '0' ? 'http:' : 'https:';
      break;
    case 'https:':
      protocol = 'https:';
      break;
    case 'http:':
    case 'ws:':
      protocol = 'http:';
      break;
    default:
      throw invalid(`database URL scheme ${url.protocol} is not supported: use libsql://, https:// or http://`);
  }
  if (tls !== null && tls !== '0' && tls !== '1') throw invalid(`tls must be 0 or 1 in the database URL, got "${tls}"`);
  if (!url.hostname) throw invalid('the database URL has no host');
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const baseUrl = `${protocol}//${url.host}${path}`;
  return { baseUrl, displayUrl: baseUrl, authToken: tokenFromUrl ?? fallbackToken };
}

/** The access a token grants, read from its claims without checking the signature (for display). */
export function tokenAccess(token: string | null): 'read-only' | 'full-access' | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { a?: unknown; p?: { ro?: unknown; rw?: unknown } };
    if (claims.a === 'ro') return 'read-only';
    if (claims.a === 'rw') return 'full-access';
    if (claims.p && typeof claims.p === 'object') {
      if (claims.p.rw) return 'full-access';
      if (claims.p.ro) return 'read-only';
    }
    return claims.a === undefined && claims.p === undefined ? 'full-access' : null;
  } catch {
    return null;
  }
}
