import type { Ctx, Router } from '../http-kit';
import type { World } from '../world';
import { containersState } from './containers';
import type { McApp } from './containers-seed';
import { mcError } from './replies';

/*
 * GET /mc/apps/{appId} and /mc/apps/{appId}/overview, which the platform's CLI calls for
 * `apps show`. The application record carries the seeded region settings; the emulator runs no
 * containers, so templates, instances and volumes are empty, and the overview's figures are
 * derived from the app (stable for a given seed), not measured.
 */

type Grade = 'couldBeBetter' | 'notBad' | 'doingGreat';

/** A small stable number from the app id: the same app always shows the same figures. */
function figure(id: string, salt: number, max: number): number {
  let h = salt;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return h % max;
}

const grade = (share: number): Grade => (share < 0.5 ? 'doingGreat' : share < 0.8 ? 'notBad' : 'couldBeBetter');

export function registerContainerApps(router: Router, world: World): void {
  const state = containersState(world);
  const appFor = (ctx: Ctx): McApp | null => {
    const app = state.apps.find((a) => a.id === ctx.params.appId);
    if (!app) mcError(ctx, 404, `Application "${(ctx.params.appId ?? '').slice(0, 40)}" was not found.`);
    return app ?? null;
  };

  router.get('/mc/apps/:appId', (ctx) => {
    const app = appFor(ctx);
    if (!app) return;
    const { nodeSelectors: _hidden, ...regionSettings } = state.regionSettings.get(app.id)!;
    ctx.send(200, {
      id: app.id,
      name: app.name,
      displayEndpoint: app.displayEndpoint,
      status: app.status,
      runtimeType: 'shared',
      regionSettings,
      containerTemplates: [],
      containerInstances: [],
      volumes: [],
    });
  });

  router.get('/mc/apps/:appId/overview', (ctx) => {
    const app = appFor(ctx);
    if (!app) return;
    const settings = state.regionSettings.get(app.id)!;
    const running = app.status === 'active' || app.status === 'progressing';
    const regions = running ? (settings.requiredRegionIds.length ? settings.requiredRegionIds : settings.allowedRegionIds.slice(0, 1)) : [];
    const perRegion = running ? 1 + figure(app.id, 7, 3) : 0;
    const cpu = running ? 5 + figure(app.id, 11, 80) : 0;
    const ram = running ? 10 + figure(app.id, 13, 70) : 0;
    const latency = running ? 8 + figure(app.id, 17, 60) : 0;
    ctx.send(200, {
      targetLatency: { indicator: 50, statusGrade: 'doingGreat' },
      currentLatency: { indicator: latency, statusGrade: grade(latency / 100) },
      activeRegions: { indicator: regions.length, statusGrade: running ? 'doingGreat' : 'couldBeBetter' },
      activeInstances: { indicator: regions.length * perRegion, statusGrade: running ? 'doingGreat' : 'couldBeBetter' },
      desiredInstances: regions.length * perRegion,
      status: app.status,
      averageCPU: { indicator: cpu, statusGrade: grade(cpu / 100) },
      averageRAM: { indicator: ram, statusGrade: grade(ram / 100) },
      averageVolumesUsage: { indicator: 0, statusGrade: 'doingGreat' },
      regions: regions.map((region) => ({
        region,
        isRequired: settings.requiredRegionIds.includes(region),
        instances: perRegion,
        status: app.status === 'progressing' ? 'progressing' : 'active',
        averageCPU: cpu,
        averageRAM: ram,
        averageVolumesUsagePercentage: 0,
        requests: 0,
        anycastTraffic: 0,
        pods: [],
      })),
      averageLatency: latency,
      totalVolumeSizeInGb: 0,
      monthlyCost: 0,
      latencyChart: {},
    });
  });
}
