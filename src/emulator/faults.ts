import type { IncomingMessage, ServerResponse } from 'node:http';
import { Random } from './random';

/** Fault injection for reliability tests: `latency=300ms,error=0.05,reset=0.02,malformed=0.02,ratelimit=0.05`. */
export interface FaultSpec {
  latencyMs: number;
  error: number;
  reset: number;
  malformed: number;
  ratelimit: number;
}

export const NO_FAULTS: FaultSpec = { latencyMs: 0, error: 0, reset: 0, malformed: 0, ratelimit: 0 };

export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) throw new Error(`"${text}" is not a duration (examples: 300ms, 20s, 5m)`);
  const n = Number(m[1]);
  const unit = m[2] ?? 'ms';
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit]!);
}

export function parseFaults(text: string): FaultSpec {
  const spec: FaultSpec = { ...NO_FAULTS };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, value] = part.split('=').map((s) => s.trim());
    if (!key || value === undefined) throw new Error(`fault "${part}" must look like name=value`);
    if (key === 'latency') {
      spec.latencyMs = parseDuration(value);
      continue;
    }
    if (!['error', 'reset', 'malformed', 'ratelimit'].includes(key)) {
      throw new Error(`unknown fault "${key}" (known: latency, error, reset, malformed, ratelimit)`);
    }
    const rate = Number(value);
    if (!Number.isFinite(rate) || rate < 0 || rate > 1) throw new Error(`fault ${key} needs a rate between 0 and 1, got "${value}"`);
    spec[key as 'error' | 'reset' | 'malformed' | 'ratelimit'] = rate;
  }
  return spec;
}

export interface FaultCounters {
  requests: number;
  delayed: number;
  errors: number;
  resets: number;
  malformed: number;
  ratelimited: number;
}

/** Decides, per request, whether to misbehave; returns true when it already answered. */
export class FaultInjector {
  readonly counters: FaultCounters = { requests: 0, delayed: 0, errors: 0, resets: 0, malformed: 0, ratelimited: 0 };
  constructor(
    private spec: FaultSpec,
    private readonly random: Random,
  ) {}

  /** New rates from now on (a request already being delayed keeps its decision). */
  setSpec(spec: FaultSpec): void {
    this.spec = { ...spec };
  }

  get active(): boolean {
    const s = this.spec;
    return s.latencyMs > 0 || s.error > 0 || s.reset > 0 || s.malformed > 0 || s.ratelimit > 0;
  }

  async apply(req: IncomingMessage, res: ServerResponse, bodies: { error: () => [string, string]; rateLimited: () => [string, string] }): Promise<boolean> {
    this.counters.requests++;
    if (!this.active) return false;
    const s = this.spec;
    if (s.latencyMs > 0) {
      this.counters.delayed++;
      await new Promise((r) => setTimeout(r, Math.round(this.random.next() * s.latencyMs)));
    }
    const roll = this.random.next();
    let edge = s.reset;
    if (roll < edge) {
      this.counters.resets++;
      req.socket.destroy();
      return true;
    }
    if (roll < (edge += s.error)) {
      this.counters.errors++;
      const [type, body] = bodies.error();
      res.writeHead(this.random.bool() ? 500 : 503, { 'content-type': type });
      res.end(body);
      return true;
    }
    if (roll < (edge += s.ratelimit)) {
      this.counters.ratelimited++;
      const [type, body] = bodies.rateLimited();
      res.writeHead(429, { 'content-type': type });
      res.end(body);
      return true;
    }
    if (roll < (edge += s.malformed)) {
      this.counters.malformed++;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"data": [{"truncated": tr');
      return true;
    }
    return false;
  }
}
