import { Router, type Ctx } from '../http-kit';
import type { OriginSpec } from '../origin';
import type { World } from '../world';
import { registerContainers } from './containers';
import { registerContainerApps } from './containers-apps';
import { registerShield } from './shield';
import { registerVideoLibraries } from './video-libraries';
import { registerLoadBalancers } from './load-balancers';
import { registerPullZones } from './pull-zones';

const HTML_404 =
  '<!DOCTYPE html><html><head><title>404 - Page Not Found</title></head><body><h1>404</h1><p>The page you are looking for could not be found.</p></body></html>';

/**
 * The management origin (api.bunny.net): core, shield, Magic Containers and database management.
 * Auth is the AccessKey header; each API family answers a 401 in its own shape.
 */
export function createManagementOrigin(world: World, extra: ((router: Router) => void)[] = []): OriginSpec {
  const router = new Router();
  registerContainers(router, world);
  registerContainerApps(router, world);
  registerShield(router, world);
  registerVideoLibraries(router, world);
  registerLoadBalancers(router, world);
  registerPullZones(router, world);
  for (const register of extra) register(router);
  return {
    name: 'management',
    router,
    authenticate(ctx: Ctx) {
      const key = ctx.req.headers.accesskey;
      if (typeof key === 'string' && key === world.accessKey) return true;
      sendUnauthorized(ctx);
      return false;
    },
    notFound(ctx) {
      // The real API answers an unknown path with an HTML page, not JSON.
      ctx.sendText(404, HTML_404, 'text/html; charset=utf-8');
    },
    errorBody: () => ['text/plain; charset=utf-8', ''],
    rateLimitedBody: () => ['text/plain; charset=utf-8', ''],
  };
}

export function sendUnauthorized(ctx: Ctx): void {
  if (ctx.path === '/shield/shield-zones') {
    // The one shield operation whose document declares UnauthorizedResult {statusCode} for 401.
    ctx.send(401, { statusCode: 401 });
  } else if (ctx.path.startsWith('/shield/') || ctx.path.startsWith('/mc/')) {
    ctx.send(401, {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
      title: 'Unauthorized',
      status: 401,
      detail: 'The AccessKey header is missing or invalid.',
      instance: ctx.path,
    });
  } else if (ctx.path.startsWith('/database/')) {
    ctx.send(401, { error: 'unauthorized: missing or invalid AccessKey' });
  } else {
    ctx.send(401); // the core API sends 401 with an empty body
  }
}
