import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Ctx, Router } from './http-kit';

/** One of the emulator's three HTTP origins (management, logging, database). */
export interface OriginSpec {
  name: 'management' | 'logging' | 'database';
  router: Router;
  /** Checks credentials after routing; answers and returns false when refused. */
  authenticate?(ctx: Ctx): boolean;
  /** Answers a path no route knows. */
  notFound(ctx: Ctx): void;
  /** [content-type, body] for an unexpected server failure (also used by fault injection). */
  errorBody(): [string, string];
  /** [content-type, body] for an injected 429. */
  rateLimitedBody(): [string, string];
  /** Called once the origin listens; `url` is where it can be reached. */
  start?(info: { url: string }): void;
  stop?(): void | Promise<void>;
  /** Takes over an HTTP upgrade (WebSocket); without it the server drops upgrade requests. */
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}
