import type { Router } from '../http-kit';
import type { World } from '../world';
import { readCorePaging, sendCoreList } from './core-paging';
import { seedVideoLibraries, type VideoLibrary } from './video-libraries-seed';

const states = new WeakMap<World, VideoLibrary[]>();

export function videoLibraries(world: World): VideoLibrary[] {
  let s = states.get(world);
  if (!s) {
    s = seedVideoLibraries(world, world.random.fork('video-libraries'));
    states.set(world, s);
  }
  return s;
}

export function registerVideoLibraries(router: Router, world: World): void {
  router.get('/videolibrary', (ctx) => {
    const all = videoLibraries(world);
    const paging = readCorePaging(ctx);
    if (!paging) return;
    const { search } = paging;
    sendCoreList(ctx, paging, search === null ? all : all.filter((l) => l.Name.toLowerCase().includes(search)));
  });
}
