import { Router } from '../http-kit';
import type { OriginSpec } from '../origin';
import type { World } from '../world';

const errorJson = (code: string, message: string) => JSON.stringify({ error: { code, message } });

/** The logging origin (logging.bunnycdn.com). Placeholder: routes arrive with the emulator issue. */
export function createLoggingOrigin(world: World): OriginSpec {
  void world;
  const router = new Router();
  return {
    name: 'logging',
    router,
    notFound(ctx) {
      ctx.send(404, { error: { code: 'not_found', message: `no route for ${ctx.method} ${ctx.path}` } });
    },
    errorBody: () => ['application/json', errorJson('internal_error', 'unexpected server error')],
    rateLimitedBody: () => ['application/json', errorJson('rate_limited', 'rate limit exceeded for this pull zone')],
  };
}
