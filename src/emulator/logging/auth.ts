import type { IncomingHttpHeaders } from 'node:http';

export type AuthResult = { ok: true } | { ok: false; status: 401 | 403; code: 'unauthorized' | 'forbidden'; message: string };

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function jsonSegment(segment: string): Record<string, unknown> | null {
  if (!B64URL.test(segment)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Why a bearer token is refused, or null when the emulator accepts it.
 * Emulator simplification: the real platform verifies the JWT's signature against keys the
 * emulator does not have, so any structurally valid JWT (three base64url parts, JSON header with
 * `alg`, JSON payload) that is not expired (`exp`) and already valid (`nbf`) is accepted.
 */
export function jwtProblem(token: string, nowMs: number): string | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p === '')) return 'the bearer token is not a JWT (three base64url parts)';
  const header = jsonSegment(parts[0]!);
  const payload = jsonSegment(parts[1]!);
  if (!header || typeof header.alg !== 'string' || header.alg === 'none') return 'the bearer token has no valid JWT header';
  if (!payload) return 'the bearer token has no valid JWT payload';
  if (!B64URL.test(parts[2]!)) return 'the bearer token has no valid signature part';
  const now = nowMs / 1000;
  if (payload.exp !== undefined && (typeof payload.exp !== 'number' || payload.exp <= now)) return 'the bearer token has expired';
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > now + 60)) return 'the bearer token is not valid yet';
  return null;
}

/** AccessKey header (checked first) or `Authorization: Bearer <JWT>`; nothing at all is a 401. */
export function checkLoggingAuth(headers: IncomingHttpHeaders, accessKey: string, nowMs: number): AuthResult {
  const key = headers.accesskey;
  if (typeof key === 'string' && key !== '') {
    return key === accessKey ? { ok: true } : { ok: false, status: 403, code: 'forbidden', message: 'the AccessKey is not valid' };
  }
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.trim() !== '') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) return { ok: false, status: 403, code: 'forbidden', message: 'the Authorization header must be "Bearer <JWT>"' };
    const problem = jwtProblem(m[1]!, nowMs);
    return problem ? { ok: false, status: 403, code: 'forbidden', message: problem } : { ok: true };
  }
  return { ok: false, status: 401, code: 'unauthorized', message: 'no credentials: send the AccessKey header or Authorization: Bearer <JWT>' };
}
