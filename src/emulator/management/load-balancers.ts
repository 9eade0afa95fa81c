import type { Router } from '../http-kit';
import type { World } from '../world';
import { containersState } from './containers';
import { seedLoadBalancers, type LoadBalancerProfile } from './load-balancers-seed';
import { coreError, INT32_MAX, parseWhole } from './replies';

const states = new WeakMap<World, LoadBalancerProfile[]>();

export function loadBalancers(world: World): LoadBalancerProfile[] {
  let s = states.get(world);
  if (!s) {
    s = seedLoadBalancers(world.random.fork('load-balancers'), containersState(world).apps);
    states.set(world, s);
  }
  return s;
}

export function registerLoadBalancers(router: Router, world: World): void {
  const all = loadBalancers(world);
  router.get('/loadbalancer', (ctx) => {
    const read = (name: string, fallback: number, max: number): number | null => {
      const raw = ctx.query.get(name);
      if (raw === null || raw.trim() === '') return fallback;
      const n = parseWhole(raw.trim());
      if (n === null || n < 1 || n > max) {
        coreError(ctx, 400, 'validation.invalid_parameter', name, `${name} must be a whole number from 1 to ${max}, got "${raw.slice(0, 40)}"`);
        return null;
      }
      return n;
    };
    const page = read('page', 1, INT32_MAX);
    if (page === null) return;
    const count = read('count', 50, 1000);
    if (count === null) return;
    const start = (page - 1) * count;
    ctx.send(200, start < all.length ? all.slice(start, start + count) : []);
  });
  router.get('/loadbalancer/:loadBalancerId', (ctx) => {
    const id = parseWhole(ctx.params.loadBalancerId ?? '');
    const profile = id === null ? undefined : all.find((p) => p.LoadBalancerId === id);
    if (!profile) {
      return coreError(ctx, 404, 'loadBalancer.not_found', 'LoadBalancer', 'The requested Load Balancer profile was not found');
    }
    ctx.send(200, profile);
  });
}
