import { Router } from '../http-kit';
import type { OriginSpec } from '../origin';
import type { World } from '../world';
import { TokenStore } from './tokens';

export const PRIMARY_DATABASE = { id: 'db_01KCHBG8C5KSFGG0VRNFQ7EK7X', name: 'burrow-demo' };

export interface DatabaseArea {
  origin: OriginSpec;
  tokens: TokenStore;
  /** Registers the database management routes (/database/v2/...) on the management origin. */
  registerManagement(router: Router): void;
  /** Tokens for the ready line: a full-access and a read-only token for the primary database. */
  initialTokens: { full: string; readOnly: string };
}

/** The database origin (Hrana over HTTP). Placeholder: the pipeline arrives with the emulator issue. */
export function createDatabaseArea(world: World): DatabaseArea {
  const tokens = new TokenStore(world.random.fork('db-tokens'), world.now);
  const router = new Router();
  return {
    tokens,
    initialTokens: {
      full: tokens.issue(PRIMARY_DATABASE.id, PRIMARY_DATABASE.name, 'full-access', null),
      readOnly: tokens.issue(PRIMARY_DATABASE.id, PRIMARY_DATABASE.name, 'read-only', null),
    },
    registerManagement() {},
    origin: {
      name: 'database',
      router,
      notFound(ctx) {
        ctx.send(404);
      },
      errorBody: () => ['text/plain', 'Internal server error'],
      rateLimitedBody: () => ['text/plain', 'Too many requests'],
    },
  };
}
