import type { Ctx, Router } from '../http-kit';
import type { World } from '../world';
import { containersState, sendPage, type ContainersState } from './containers';
import type { McApp } from './containers-seed';
import {
  figure,
  imageOf,
  maskEnvValue,
  placementOf,
  type McEndpoint,
  type McPlacement,
  type McRegistry,
  type McTemplate,
  type McWorkload,
} from './containers-workload';
import { mcError } from './replies';

/*
 * One application's routes: GET /mc/apps/{appId}, its /overview, /volumes, /endpoints and a
 * container template, and GET /mc/registries. The emulator runs no containers: what an app runs
 * is seeded (containers-workload.ts) and where it runs follows its region settings, so the
 * application, its overview and its volumes tell the same story. Usage figures are derived from
 * the app (stable for a given seed), not measured.
 */

type Grade = 'couldBeBetter' | 'notBad' | 'doingGreat';
const grade = (share: number): Grade => (share < 0.5 ? 'doingGreat' : share < 0.8 ? 'notBad' : 'couldBeBetter');

function endpointJson(e: McEndpoint, placement: McPlacement) {
  const ips = e.type === 'cdn' ? null : placement.regions.map((region) => ({ address: e.publicHost, region }));
  return {
    id: e.id,
    displayName: e.displayName,
    publicHost: e.publicHost,
    type: e.type,
    isSslEnabled: e.isSslEnabled,
    pullZoneId: e.pullZoneId,
    portMappings: [{ containerPort: e.containerPort, exposedPort: e.exposedPort, protocols: [e.protocol] }],
    stickySessions: { enabled: false, sessionHeaders: [], cookieName: 'mc_session' },
    internalIpAddresses: null,
    publicIpAddresses: ips,
  };
}

function templateJson(t: McTemplate, placement: McPlacement) {
  return {
    id: t.id,
    name: t.name,
    packageId: t.packageId,
    image: imageOf(t),
    imageName: t.imageName,
    imageNamespace: t.imageNamespace,
    imageTag: t.imageTag,
    imageRegistryId: String(t.registry.id),
    imageDigest: t.imageDigest,
    imagePullPolicy: t.imagePullPolicy,
    entryPoint: { command: null, commandArray: null, arguments: null, argumentsArray: null, workingDirectory: null },
    probes: t.endpoints.length
      ? {
          readiness: {
            initialDelaySeconds: 10,
            periodSeconds: 10,
            timeoutSeconds: 7,
            failureThreshold: 3,
            successThreshold: 1,
            tcpSocket: { request: { portNumber: t.endpoints[0]!.containerPort } },
          },
        }
      : {},
    environmentVariables: t.env.map((e) => ({ name: e.name, value: e.secret ? maskEnvValue(e.value) : e.value })),
    endpoints: t.endpoints.map((e) => endpointJson(e, placement)),
    volumeMounts: t.volumeMounts.map((m) => ({ ...m })),
  };
}

function registryJson(r: McRegistry) {
  return {
    id: r.id,
    accountId: null,
    userId: null,
    namespaceId: r.namespaceId,
    displayName: r.displayName,
    hostName: r.hostName,
    userName: r.userName,
    firstPasswordSymbols: r.password ? r.password.slice(0, 4) : null,
    lastPasswordSymbols: r.password ? r.password.slice(-4) : null,
    createdAt: r.createdAt,
    isPublic: r.isPublic,
    isPlatformManaged: r.isPlatformManaged,
    lastUpdatedAt: null,
  };
}

/** Share of a volume in use on one pod, in percent (stable). */
const volumeUse = (podId: string, volume: string) => 5 + figure(`${podId}/${volume}`, 19, 70);

function volumesJson(workload: McWorkload, placement: McPlacement) {
  return workload.volumes.map((v) => {
    const mountedBy = workload.templates.filter((t) => t.volumeMounts.some((m) => m.name === v.name));
    const instances = placement.pods.map((pod) => ({
      id: `${v.id}-${pod.id.slice(-5)}`,
      attachedPods: [pod.id],
      attachedContainers: pod.containers.filter((c) => mountedBy.some((t) => t.id === c.templateId)).map((c) => c.instanceId),
      region: pod.region,
      status: pod.ready ? 'attached' : 'creating',
      size: v.size,
      usage: Math.round((v.size * volumeUse(pod.id, v.name)) / 10) / 10,
      set: v.name,
    }));
    return {
      name: v.name,
      id: v.id,
      size: v.size,
      totalUsage: Math.round(instances.reduce((s, i) => s + i.usage, 0) * 10) / 10,
      totalInstancesCount: instances.length,
      attachedInstancesCount: instances.filter((i) => i.status === 'attached').length,
      containersCount: mountedBy.length,
      volumeInstances: instances,
    };
  });
}

export function registerContainerApps(router: Router, world: World): void {
  const state = containersState(world);
  const appFor = (ctx: Ctx): McApp | null => {
    const app = state.apps.find((a) => a.id === ctx.params.appId);
    if (!app) mcError(ctx, 404, `Application "${(ctx.params.appId ?? '').slice(0, 40)}" was not found.`);
    return app ?? null;
  };
  const placement = (app: McApp) => placementOfApp(state, app);

  router.get('/mc/registries', (ctx) => sendPage(ctx, 'registries', state.registries.map(registryJson)));

  router.get('/mc/apps/:appId', (ctx) => {
    const app = appFor(ctx);
    if (!app) return;
    const { nodeSelectors: _hidden, ...regionSettings } = state.regionSettings.get(app.id)!;
    const workload = state.workloads.get(app.id)!;
    const where = placement(app);
    ctx.send(200, {
      id: app.id,
      name: app.name,
      displayEndpoint: app.displayEndpoint,
      status: app.status,
      runtimeType: 'shared',
      regionSettings,
      containerTemplates: workload.templates.map((t) => templateJson(t, where)),
      containerInstances: where.pods.flatMap((pod) =>
        pod.containers.map((c) => ({ id: c.instanceId, templateId: c.templateId, podId: pod.id, nodeIpAddress: pod.nodeIpAddress })),
      ),
      volumes: workload.volumes.map((v) => ({ name: v.name, size: v.size })),
      autoScaling: { ...workload.autoScaling },
    });
  });

  router.get('/mc/apps/:appId/containers/:containerId', (ctx) => {
    const app = appFor(ctx);
    if (!app) return;
    const template = state.workloads.get(app.id)!.templates.find((t) => t.id === ctx.params.containerId);
    if (!template) return mcError(ctx, 404, `Container "${(ctx.params.containerId ?? '').slice(0, 40)}" was not found in application ${app.id}.`, null, app.id);
    ctx.send(200, templateJson(template, placement(app)));
  });

  router.get('/mc/apps/:appId/endpoints', (ctx) => {
    const app = appFor(ctx);
    if (!app) return;
    const where = placement(app);
    const items = state.workloads
      .get(app.id)!
      .templates.flatMap((t) => t.endpoints.map((e) => ({ ...endpointJson(e, where), containerName: t.name, containerId: t.id })));
    sendPage(ctx, `endpoints:${app.id}`, items);
  });

  // The document lists no 404 here: an unknown app has no volumes.
  router.get('/mc/apps/:appId/volumes', (ctx) => {
    const app = state.apps.find((a) => a.id === ctx.params.appId);
    const volumes = app ? volumesJson(state.workloads.get(app.id)!, placement(app)) : [];
    const pods = app ? placement(app).pods.length : 0;
    const containers = app ? state.workloads.get(app.id)!.templates.filter((t) => t.volumeMounts.length).length * pods : 0;
    ctx.send(200, {
      items: volumes,
      meta: { totalItems: volumes.length },
      cursor: null,
      summary: {
        totalPods: volumes.length ? pods : 0,
        totalContainers: containers,
        totalStorage: volumes.reduce((s, v) => s + v.size * v.totalInstancesCount, 0),
      },
    });
  });

  router.get('/mc/apps/:appId/overview', (ctx) => {
    const app = appFor(ctx);
    if (!app) return;
    const settings = state.regionSettings.get(app.id)!;
    const workload = state.workloads.get(app.id)!;
    const where = placement(app);
    const running = where.regions.length > 0;
    const cpu = running ? 5 + figure(app.id, 11, 80) : 0;
    const ram = running ? 10 + figure(app.id, 13, 70) : 0;
    const latency = running ? 8 + figure(app.id, 17, 60) : 0;
    const ready = where.pods.filter((p) => p.ready).length;
    const volumeUsage =
      where.pods.length && workload.volumes.length
        ? Math.round(
            where.pods.reduce((s, p) => s + workload.volumes.reduce((t, v) => t + volumeUse(p.id, v.name), 0) / workload.volumes.length, 0) / where.pods.length,
          )
        : 0;
    const heartbeat = new Date(world.now()).toISOString();
    ctx.send(200, {
      targetLatency: { indicator: 50, statusGrade: 'doingGreat' },
      currentLatency: { indicator: latency, statusGrade: grade(latency / 100) },
      activeRegions: { indicator: where.regions.length, statusGrade: running ? 'doingGreat' : 'couldBeBetter' },
      activeInstances: { indicator: ready, statusGrade: running ? (ready === where.pods.length ? 'doingGreat' : 'notBad') : 'couldBeBetter' },
      desiredInstances: where.pods.length,
      status: app.status,
      averageCPU: { indicator: cpu, statusGrade: grade(cpu / 100) },
      averageRAM: { indicator: ram, statusGrade: grade(ram / 100) },
      averageVolumesUsage: { indicator: volumeUsage, statusGrade: grade(volumeUsage / 100) },
      regions: where.regions.map((region) => {
        const pods = where.pods.filter((p) => p.region === region);
        return {
          region,
          isRequired: settings.requiredRegionIds.includes(region),
          instances: pods.length,
          status: pods.every((p) => p.ready) ? 'active' : 'progressing',
          averageCPU: cpu,
          averageRAM: ram,
          averageVolumesUsagePercentage: volumeUsage,
          requests: 0,
          anycastTraffic: 0,
          pods: pods.map((pod) => ({
            name: pod.id,
            status: pod.ready ? 'ready' : 'scheduled',
            lastHeartBeat: pod.ready ? heartbeat : null,
            cpuUsage: cpu,
            ramUsage: ram,
            containers: pod.containers.map((c) => {
              const t = workload.templates.find((x) => x.id === c.templateId)!;
              return {
                id: c.instanceId,
                name: t.name,
                cpuUsage: cpu,
                ramUsage: ram,
                reason: '',
                message: '',
                status: pod.ready ? 'ready' : 'notStarted',
                image: imageOf(t),
                imageDisplay: `${t.imageName}:${t.imageTag}`,
                numberOfRestarts: 0,
                exitCode: null,
              };
            }),
            volumesUtilizationPercentage: Object.fromEntries(workload.volumes.map((v) => [v.name, volumeUse(pod.id, v.name)])),
          })),
        };
      }),
      averageLatency: latency,
      totalVolumeSizeInGb: workload.volumes.reduce((s, v) => s + v.size, 0) * where.pods.length,
      monthlyCost: 0,
      latencyChart: {},
    });
  });
}

function placementOfApp(state: ContainersState, app: McApp): McPlacement {
  return placementOf(app, state.regionSettings.get(app.id)!, state.workloads.get(app.id)!, {
    perRegion: state.limits.maxNumberOfInstancesPerRegion,
    perApp: state.limits.maxNumberOfInstancesPerApplication,
  });
}
