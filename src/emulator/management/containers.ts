import type { Router } from '../http-kit';
import type { World } from '../world';

export interface ContainerLimits {
  maxNumberOfApplications: number;
  existingNumberOfApplications: number;
  maxNumberOfRegionsPerApplication: number | null;
  maxNumberOfInstancesPerRegion: number;
  maxNumberOfInstancesPerApplication: number | null;
  maxNumberOfVolumesPerApplication: number;
  maxVolumeSize: number | null;
}

export interface ContainersState {
  limits: ContainerLimits;
}

const states = new WeakMap<World, ContainersState>();

export function containersState(world: World): ContainersState {
  let s = states.get(world);
  if (!s) {
    s = {
      limits: {
        maxNumberOfApplications: 25,
        existingNumberOfApplications: 0,
        maxNumberOfRegionsPerApplication: 10,
        maxNumberOfInstancesPerRegion: 20,
        maxNumberOfInstancesPerApplication: 100,
        maxNumberOfVolumesPerApplication: 5,
        maxVolumeSize: 100,
      },
    };
    states.set(world, s);
  }
  return s;
}

export function registerContainers(router: Router, world: World): void {
  const state = containersState(world);
  router.get('/mc/limits', (ctx) => ctx.send(200, state.limits));
}
