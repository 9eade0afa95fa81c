import { randomBytes } from 'node:crypto';
import { EmulatorClock } from './clock';
import { Random } from './random';
import type { FaultSpec } from './faults';

export interface EmulatorOptions {
  host?: string;
  /** Management port; logging uses port+1 and the database port+2. 0 picks free ports. */
  port?: number;
  seed?: number;
  /** Log records per second per logging-enabled zone. */
  logRate?: number;
  /** Upper bound of the random per-record ingestion delay. */
  ingestDelayMs?: number;
  faults?: FaultSpec;
  /** Database stream idle expiry (sqld: 10 s). */
  streamIdleMs?: number;
  /**
   * A WebSocket stream idle this long gives its engine connection back; one in a transaction (or
   * holding settings) then expires. sqld never expires them; default 60 s.
   */
  wsStreamIdleMs?: number;
  /** A database statement running longer is interrupted (default 5 s). */
  statementTimeoutMs?: number;
  /** Clock, for tests (an EmulatorClock's `now`, or any function). Wins over clockStart. */
  now?: () => number;
  /** The emulator's clock reads this at start (epoch ms) and then runs; default: the real time. */
  clockStart?: number;
}

export interface PullZoneSeed {
  Id: number;
  Name: string;
  OriginUrl: string;
  Enabled: boolean;
  Suspended: boolean;
  EnableLogging: boolean;
  /** Hostnames as the core API lists them; the first is the system b-cdn.net name. */
  Hostnames: { Id: number; Value: string; ForceSSL: boolean; IsSystemHostname: boolean; HasCertificate: boolean }[];
  /** Traffic weight for the generator: 1 = busy, small = quiet. */
  trafficWeight: number;
}

/** State every emulator area can read. Areas keep their own state in their own modules. */
export interface World {
  seed: number;
  random: Random;
  /** Random on every start (crypto), whatever the seed. */
  accessKey: string;
  now: () => number;
  startedAt: number;
  options: Required<Omit<EmulatorOptions, 'now' | 'faults' | 'clockStart'>> & { faults: FaultSpec | null };
  pullZones: PullZoneSeed[];
}

const ZONE_NAMES: [string, string, boolean, number][] = [
  ['shop-assets', 'https://origin.shop.example', true, 1],
  ['video-edge', 'https://media.example', true, 0.8],
  ['api-gateway', 'https://api.internal.example', true, 0.6],
  ['docs-site', 'https://docs.example', true, 0.08],
  ['legacy-static', 'https://old.example', false, 0],
  ['staging-web', 'https://staging.example', false, 0],
  // Zones without logging that give the shield and pull zone lists some length.
  ['checkout-api', 'https://checkout.internal.example', false, 0],
  ['images-cdn', 'https://images.example', false, 0],
  ['partner-portal', 'https://partners.example', false, 0],
  ['marketing-site', 'https://www.example', false, 0],
  ['downloads', 'https://downloads.example', false, 0],
  ['status-page', 'https://status.example', false, 0],
];

export function createWorld(options: EmulatorOptions): World {
  const seed = options.seed ?? 1;
  const random = new Random(seed);
  // The seed makes the data, never the secrets: any local user can read the seed off the command line.
  const hex = randomBytes(20).toString('hex');
  const accessKey = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 40)}`;
  const now = options.now ?? (options.clockStart !== undefined ? new EmulatorClock(options.clockStart).now : Date.now);
  const zoneRandom = random.fork('pull-zones');
  let hostId = 9000;
  const pullZones: PullZoneSeed[] = ZONE_NAMES.map(([name, origin, logging, weight], i) => {
    const id = 1_000 + i * 137 + zoneRandom.int(0, 99);
    return {
      Id: id,
      Name: name,
      OriginUrl: origin,
      Enabled: true,
      Suspended: false,
      EnableLogging: logging,
      Hostnames: [
        { Id: hostId++, Value: `${name}.b-cdn.net`, ForceSSL: false, IsSystemHostname: true, HasCertificate: true },
        { Id: hostId++, Value: `${name.replace(/-/g, '')}.example.com`, ForceSSL: true, IsSystemHostname: false, HasCertificate: true },
      ],
      trafficWeight: weight,
    };
  });
  return {
    seed,
    random,
    accessKey,
    now,
    startedAt: now(),
    options: {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      seed,
      logRate: options.logRate ?? 3,
      ingestDelayMs: options.ingestDelayMs ?? 20_000,
      streamIdleMs: options.streamIdleMs ?? 10_000,
      wsStreamIdleMs: options.wsStreamIdleMs ?? 60_000,
      statementTimeoutMs: options.statementTimeoutMs ?? 5000,
      faults: options.faults ?? null,
    },
    pullZones,
  };
}
