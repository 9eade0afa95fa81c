import { createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';

export type TokenAccess = 'full-access' | 'read-only';

export interface TokenClaims {
  db: string;
  access: TokenAccess;
  /** Seconds since the epoch, or null for no expiry. */
  exp: number | null;
  /** The database's token generation when issued; revoking bumps the generation. */
  gen: number;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/**
 * EdDSA-signed JWTs with libSQL-style permission claims, as the platform issues them.
 * Revocation is all-at-once per database: every token issued before it stops working.
 */
export class TokenStore {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private readonly generation = new Map<string, number>();

  /** The signing key is random on every start: a token from another run (or a guessed seed) is refused. */
  constructor(private readonly now: () => number) {
    const seed = randomBytes(32);
    const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
    this.privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    this.publicKey = createPublicKey(this.privateKey);
  }

  issue(dbId: string, dbName: string, access: TokenAccess, expiresAt: Date | null): string {
    const header = { typ: 'JWT', alg: 'EdDSA' };
    const perm = { ns: [dbName], tags: null };
    const payload = {
      p: { ro: access === 'read-only' ? perm : null, rw: access === 'full-access' ? perm : null, roa: null, rwa: null, ddl: null },
      iat: Math.floor(this.now() / 1000),
      ...(expiresAt ? { exp: Math.floor(expiresAt.getTime() / 1000) } : {}),
      db: dbId,
      gen: this.generation.get(dbId) ?? 0,
    };
    const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
    return `${input}.${b64url(sign(null, Buffer.from(input), this.privateKey))}`;
  }

  /** The claims of a valid token, or the reason it is not valid. */
  check(token: string): { ok: true; claims: TokenClaims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' | 'revoked' } {
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, reason: 'malformed' };
    const [h, p, s] = parts as [string, string, string];
    let good = false;
    try {
      good = verify(null, Buffer.from(`${h}.${p}`), this.publicKey, Buffer.from(s, 'base64url'));
    } catch {
      good = false;
    }
    if (!good) return { ok: false, reason: 'signature' };
    let payload: { p?: { rw?: unknown; ro?: unknown }; exp?: number; db?: string; gen?: number };
    try {
      payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    const db = payload.db ?? '';
    if (typeof payload.exp === 'number' && payload.exp * 1000 <= this.now()) return { ok: false, reason: 'expired' };
    if ((payload.gen ?? 0) !== (this.generation.get(db) ?? 0)) return { ok: false, reason: 'revoked' };
    return {
      ok: true,
      claims: { db, access: payload.p?.rw ? 'full-access' : 'read-only', exp: payload.exp ?? null, gen: payload.gen ?? 0 },
    };
  }

  /** Invalidates every token of the database at once. */
  revokeAll(dbId: string): void {
    this.generation.set(dbId, (this.generation.get(dbId) ?? 0) + 1);
  }
}
