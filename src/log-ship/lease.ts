import type { LogStore } from './store';

/** Who is shipping: this host, this process, this run. */
export interface Owner {
  host: string;
  pid: number;
  /** Unique per run (a pid is reused; a run is not). */
  id: string;
}

export class LeaseRefused extends Error {}

export const LEASE_TTL_MS = 30_000;

/** Whether a process of this host is alive (a shipper killed with -9 leaves its lease behind). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One shipper per zone and table: a lease row in the state table, renewed by a heartbeat and
 * expiring LEASE_TTL_MS after the last one, so a shipper killed with -9 holds the zone no
 * longer than that (at once on the same host, where its pid is seen gone).
 */
export class ZoneLease {
  private held = false;
  private lastWritten = 0;

  constructor(
    private readonly store: LogStore,
    readonly zone: number,
    private readonly owner: Owner,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = LEASE_TTL_MS,
  ) {}

  private get ownerKey(): string {
    return `${this.owner.host}:${this.owner.pid}:${this.owner.id}`;
  }

  private stamp(): number {
    this.lastWritten = Math.max(this.now(), this.lastWritten + 1);
    return this.lastWritten;
  }

  private async write(expires: number): Promise<void> {
    await this.store.writeState(this.zone, 'lease', {
      value: expires,
      owner: this.ownerKey,
      host: this.owner.host,
      pid: this.owner.pid,
      writtenMs: this.stamp(),
    });
  }

  private refusal(row: { host: string; pid: number; value: number }): LeaseRefused {
    const left = Math.max(0, Math.ceil((row.value - this.now()) / 1000));
    return new LeaseRefused(
      `zone ${this.zone} is being shipped into this table by host ${row.host} pid ${row.pid} (its lease expires in ${left}s unless renewed); stop it first`,
    );
  }

  /** Takes the zone, or throws LeaseRefused naming the shipper that has it. */
  async acquire(): Promise<void> {
    const row = await this.store.readState(this.zone, 'lease');
    if (row && row.owner !== this.ownerKey && row.value > this.now()) {
      const sameHost = row.host === this.owner.host;
      if (!sameHost || (row.pid !== this.owner.pid && alive(row.pid))) throw this.refusal(row);
    }
    await this.write(this.now() + this.ttlMs);
    // two shippers starting together both wrote: the newest row wins, the other one backs off
    const after = await this.store.readState(this.zone, 'lease');
    if (after && after.owner !== this.ownerKey) throw this.refusal(after);
    this.held = true;
  }

  /** Heartbeat; throws LeaseRefused when another shipper took the zone meanwhile. */
  async renew(): Promise<void> {
    const row = await this.store.readState(this.zone, 'lease');
    if (row && row.owner !== this.ownerKey) {
      this.held = false;
      throw this.refusal(row);
    }
    await this.write(this.now() + this.ttlMs);
  }

  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    await this.write(0);
  }
}
