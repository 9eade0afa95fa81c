import type { Random } from '../random';
import type { McApp, McRegionSettings } from './containers-seed';

/*
 * What runs inside each seeded application: its container templates (image, env, endpoints,
 * volume mounts), its volume templates, and where its pods are placed. Templates and volumes are
 * seeded once; the placement is computed from the app's current region settings on every
 * request, so `/overview`, the app's `containerInstances` and the volumes' instances agree with
 * each other and follow a region settings change.
 */

export interface McRegistry {
  id: number;
  displayName: string;
  hostName: string;
  namespaceId: string;
  userName: string | null;
  /** The password itself is never sent: the document's registry shows its first and last symbols only. */
  password: string | null;
  isPublic: boolean;
  isPlatformManaged: boolean;
  createdAt: string;
}

export interface McEnvVar {
  name: string;
  value: string;
  /** Sent masked (see maskEnvValue). */
  secret: boolean;
}

export interface McEndpoint {
  id: string;
  displayName: string;
  publicHost: string;
  type: 'cdn' | 'anycast' | 'publicIp';
  isSslEnabled: boolean;
  pullZoneId: string;
  containerPort: number;
  exposedPort: number;
  protocol: 'tcp' | 'udp';
}

export interface McTemplate {
  id: string;
  name: string;
  packageId: string;
  registry: McRegistry;
  imageNamespace: string;
  imageName: string;
  imageTag: string;
  imageDigest: string;
  imagePullPolicy: 'always' | 'ifNotPresent';
  env: McEnvVar[];
  endpoints: McEndpoint[];
  volumeMounts: { name: string; mountPath: string }[];
}

export interface McVolume {
  id: string;
  name: string;
  /** GB. */
  size: number;
}

export interface McWorkload {
  templates: McTemplate[];
  volumes: McVolume[];
  autoScaling: { min: number; max: number };
}

/** A pod of the placement: one per instance slot in a region, running every template. */
export interface McPod {
  id: string;
  region: string;
  nodeIpAddress: string;
  ready: boolean;
  /** Container instance id per template id. */
  containers: { templateId: string; instanceId: string }[];
}

export interface McPlacement {
  regions: string[];
  perRegion: number;
  pods: McPod[];
}

/** A small stable number from a text: the same app always shows the same figures. */
export function figure(text: string, salt: number, max: number): number {
  let h = salt;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h % max;
}

const base36 = (text: string, salt: number, length: number): string => {
  let out = '';
  for (let i = 0; out.length < length; i++) out += figure(`${text}#${i}`, salt, 36).toString(36);
  return out;
};

export function seedRegistries(r: Random): McRegistry[] {
  const day = (d: number) => new Date(Date.UTC(2025, 8, 1) + d * 86_400_000).toISOString();
  return [
    {
      id: 101,
      displayName: 'Docker Hub',
      hostName: 'docker.io',
      namespaceId: 'library',
      userName: null,
      password: null,
      isPublic: true,
      isPlatformManaged: true,
      createdAt: day(0),
    },
    {
      id: 102 + r.int(0, 50),
      displayName: 'GitHub (acme-shop)',
      hostName: 'ghcr.io',
      namespaceId: 'acme-shop',
      userName: 'acme-deploy',
      password: `ghp_${r.alnum(36)}`,
      isPublic: false,
      isPlatformManaged: false,
      createdAt: day(r.int(10, 200)),
    },
    {
      id: 200 + r.int(0, 50),
      displayName: 'bunny registry',
      hostName: 'registry.bunny.net',
      namespaceId: `acme-${r.alnum(6).toLowerCase()}`,
      userName: 'acme',
      password: r.alnum(40),
      isPublic: false,
      isPlatformManaged: true,
      createdAt: day(r.int(10, 200)),
    },
  ];
}

/** Apps with data on disk: [volume name, mount path, size in GB]. */
const VOLUMES: Record<string, [string, string, number][]> = {
  'search-indexer': [['index', '/var/lib/index', 40]],
  'chat-relay': [['sessions', '/data', 5]],
  'legacy-cms': [
    ['uploads', '/srv/uploads', 80],
    ['db', '/var/lib/mysql', 20],
  ],
  'metrics-collector': [['spool', '/var/spool/beacons', 10]],
  'ml-inference': [['models', '/models', 60]],
  'mail-sender': [['queue', '/var/spool/mail', 5]],
};

/** Second containers some apps run next to their own: [name, registry index, namespace, image, tag, env]. */
const SIDECARS: Record<string, [string, number, string, string, string, [string, string][]]> = {
  'checkout-api': ['redis', 0, 'library', 'redis', '7.2-alpine', [['REDIS_ARGS', '--maxmemory 256mb']]],
  recommendations: ['redis', 0, 'library', 'redis', '7.2-alpine', [['REDIS_ARGS', '--save ""']]],
  'metrics-collector': ['otel-collector', 0, 'otel', 'opentelemetry-collector', '0.98.0', [['OTEL_EXPORTER_OTLP_ENDPOINT', 'https://otlp.acme.example']]],
  'auth-gateway': ['envoy', 0, 'envoyproxy', 'envoy', 'v1.30-latest', [['ENVOY_LOG_LEVEL', 'warn']]],
};

/** Secrets an app's own container is given: [name, prefix, random length]. */
const SECRETS: [string, string, number][] = [
  ['STRIPE_SECRET_KEY', 'sk_live_', 24],
  ['JWT_SIGNING_KEY', '', 48],
  ['SMTP_PASSWORD', '', 20],
  ['SENTRY_DSN', 'https://', 32],
  ['SESSION_SECRET', '', 32],
];

/** Container ports by runtime: most apps listen on 8080, a few elsewhere. */
const PORTS: Record<string, number> = { 'game-lobby': 7777, 'chat-relay': 3000, 'geo-ip-lookup': 9000 };

export function seedWorkload(r: Random, app: McApp, registries: McRegistry[], maxVolumeSize: number | null): McWorkload {
  const [hub, github, bunny] = [registries[0]!, registries[1]!, registries[2]!];
  const registry = r.bool(0.7) ? github : bunny;
  const port = PORTS[app.name] ?? 8080;
  const volumes: McVolume[] = (VOLUMES[app.name] ?? []).map(([name, , size]) => ({
    id: r.alnum(12),
    name,
    size: maxVolumeSize === null ? size : Math.min(size, maxVolumeSize),
  }));
  const dbName = app.name.replace(/-/g, '');
  const env: McEnvVar[] = [
    { name: 'APP_ENV', value: app.name === 'staging-preview' ? 'staging' : 'production', secret: false },
    { name: 'PORT', value: String(port), secret: false },
    { name: 'LOG_LEVEL', value: r.pick(['info', 'info', 'warn', 'debug']), secret: false },
  ];
  if (r.bool(0.6)) {
    // Set by the platform when database credentials are added to a container.
    env.push({ name: 'SERVICE_DATABASE_URL', value: `libsql://${dbName}-acme.lite.bunnydb.net`, secret: false });
    env.push({ name: 'SERVICE_DATABASE_AUTH_TOKEN', value: `eyJhbGciOiJFZERTQSJ9.${r.alnum(40)}.${r.alnum(43)}`, secret: true });
  }
  for (const [name, prefix, length] of SECRETS) if (r.bool(0.35)) env.push({ name, value: `${prefix}${r.alnum(length)}`, secret: true });
  if (!env.some((e) => e.secret)) env.push({ name: 'API_TOKEN', value: r.alnum(32), secret: true });

  const shown = app.displayEndpoint;
  const host = shown.type === 'publicIp' ? shown.address.replace(/:\d+$/, '') : shown.address;
  const exposed = shown.type === 'cdn' ? 443 : shown.type === 'publicIp' ? Number(/:(\d+)$/.exec(shown.address)?.[1] ?? port) : port;
  const endpoint: McEndpoint = {
    id: shown.id,
    displayName: `${app.name}-${shown.type === 'publicIp' ? 'ip' : shown.type}`,
    publicHost: host,
    type: shown.type,
    isSslEnabled: shown.type === 'cdn',
    pullZoneId: String(r.int(1_000_000, 4_999_999)),
    containerPort: port,
    exposedPort: exposed,
    protocol: app.name === 'game-lobby' ? 'udp' : 'tcp',
  };
  const main: McTemplate = {
    id: r.alnum(12),
    name: app.name,
    packageId: r.alnum(16),
    registry,
    imageNamespace: registry.namespaceId,
    imageName: app.name,
    imageTag: `${r.int(1, 4)}.${r.int(0, 40)}.${r.int(0, 9)}`,
    imageDigest: `sha256:${r.hex(64)}`,
    imagePullPolicy: r.bool(0.8) ? 'ifNotPresent' : 'always',
    env,
    endpoints: [endpoint],
    volumeMounts: (VOLUMES[app.name] ?? []).map(([name, mountPath]) => ({ name, mountPath })),
  };
  const templates = [main];
  const side = SIDECARS[app.name];
  if (side) {
    const [name, , namespace, image, tag, sideEnv] = side;
    templates.push({
      id: r.alnum(12),
      name,
      packageId: r.alnum(16),
      registry: hub,
      imageNamespace: namespace,
      imageName: image,
      imageTag: tag,
      imageDigest: `sha256:${r.hex(64)}`,
      imagePullPolicy: 'ifNotPresent',
      env: sideEnv.map(([n, v]) => ({ name: n, value: v, secret: false })),
      endpoints: [],
      volumeMounts: [],
    });
  }
  const min = 1 + r.int(0, 1);
  return { templates, volumes, autoScaling: { min, max: min + r.int(1, 4) } };
}

/** "ghcr.io/acme-shop/checkout-api:1.4.2" (Docker Hub's official images without a namespace). */
export function imageOf(t: McTemplate): string {
  const path = t.registry.hostName === 'docker.io' && t.imageNamespace === 'library' ? t.imageName : `${t.imageNamespace}/${t.imageName}`;
  return `${t.registry.hostName}/${path}:${t.imageTag}`;
}

/**
 * A secret's value as it is sent: the Magic Containers document masks secrets only in one place,
 * a registry's password (its first and last symbols); env secrets are masked the same way.
 */
export function maskEnvValue(value: string): string {
  return value.length < 12 ? '********' : `${value.slice(0, 4)}********${value.slice(-4)}`;
}

/**
 * Where the app's pods run now: only a running app (active or progressing) has pods; in its
 * required regions (or its first allowed one when none is required), the same number per region.
 */
export function placementOf(app: McApp, settings: McRegionSettings, workload: McWorkload, limits: { perRegion: number; perApp: number | null }): McPlacement {
  const running = app.status === 'active' || app.status === 'progressing';
  const regions = running ? (settings.requiredRegionIds.length ? [...settings.requiredRegionIds] : settings.allowedRegionIds.slice(0, 1)) : [];
  let perRegion = running ? Math.min(1 + figure(app.id, 7, 3), limits.perRegion) : 0;
  if (limits.perApp !== null && regions.length) perRegion = Math.min(perRegion, Math.floor(limits.perApp / regions.length));
  const pods: McPod[] = [];
  for (const [ri, region] of regions.entries()) {
    for (let i = 0; i < perRegion; i++) {
      const key = `${app.id}/${region}/${i}`;
      const id = `${app.name}-${base36(key, 3, 10)}-${base36(key, 5, 5)}`;
      pods.push({
        id,
        region,
        nodeIpAddress: `10.${40 + ri}.${figure(key, 9, 250) + 1}.${figure(key, 11, 250) + 1}`,
        // A progressing app is still starting its last pod.
        ready: !(app.status === 'progressing' && ri === regions.length - 1 && i === perRegion - 1),
        containers: workload.templates.map((t) => ({ templateId: t.id, instanceId: `${id}-${t.name}` })),
      });
    }
  }
  return { regions, perRegion, pods };
}
