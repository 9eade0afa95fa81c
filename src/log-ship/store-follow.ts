import type { NormalizedFilter } from '../api/logs/query';
import type { LogEntry } from '../log-fields/fields';
import { stateTableName } from './schema';
import { sqlIdentifier, sqlLiteral } from './sql-text';
import { entryOfRow, ID_FIELD, recordColumnsSql, selectionSql, storedTable, type StoredTable } from './store-read';
import type { LogStore } from './store';

export interface StoreFollowOptions {
  zones: readonly number[];
  filter: NormalizedFilter | null;
  /** Records from this time on (epoch ms). */
  from: number;
  /**
   * A zone without a shipper's checkpoint (rows inserted by something else): how far behind the
   * newest record seen a late record is still caught. With a checkpoint nothing is missed.
   */
  overlapMs: number;
}

/**
 * Tailing the store as records are stored, each printed once, however late it was stored.
 *
 * The table has no insertion time, so each poll re-reads, per zone, the keys (id and time) from a
 * floor on and leaves out the records already given (a set bounded by the floor); whole rows are
 * read only from the oldest new key on (the newest few, unless a late record came).
 * The floor moves to the zone's checkpoint, read BEFORE the poll's query: the shipper writes it
 * only after every record before it was acknowledged, so the query sees all of them and nothing
 * older can arrive later. A zone without a checkpoint keeps `overlapMs` behind its newest record.
 */
export class StoreFollower {
  private table: StoredTable | null = null;
  private hasState: boolean | null = null;
  private readonly floor = new Map<number, number>();
  private readonly newest = new Map<number, number>();
  /** zone -> key (request id and time) -> time: what was given at or after the zone's floor. */
  private readonly seen = new Map<number, Map<string, number>>();

  constructor(
    private readonly store: LogStore,
    private readonly o: StoreFollowOptions,
  ) {
    for (const z of o.zones) {
      this.floor.set(z, o.from);
      this.seen.set(z, new Map());
    }
  }

  /** How many records are remembered to leave out of the next polls (the bounded set). */
  get remembered(): number {
    let n = 0;
    for (const s of this.seen.values()) n += s.size;
    return n;
  }

  /**
   * Where alert windows end: just after the newest record given of the zones that have any (the
   * slowest of them), never before the floors. A record stored later behind it is shown but was
   * not counted by a window already evaluated; null before any record.
   */
  settledBefore(): number | null {
    if (this.newest.size === 0) return null;
    return Math.max(Math.min(...this.newest.values()) + 1, Math.min(...this.floor.values()));
  }

  /** The records stored since the last poll (and those stored late behind it), oldest first. */
  async poll(signal?: AbortSignal): Promise<LogEntry[]> {
    const table = (this.table ??= await storedTable(this.store));
    const checkpoints = await this.checkpoints(signal);
    const out: { t: number; zone: number; row: Record<string, unknown> }[] = [];
    const id = sqlIdentifier(ID_FIELD);
    for (const zone of this.o.zones) {
      const floor = this.floor.get(zone)!;
      const seen = this.seen.get(zone)!;
      const where = (from: number) => selectionSql(table, { zones: [zone], from, to: null, filter: this.o.filter });
      // the keys from the floor on (two narrow columns), then whole rows only from the oldest new one
      const keys = await this.store.rows<{ t_ms: string; k: string }>(
        `SELECT ${table.ms} AS t_ms, ${id} AS k FROM ${table.table} WHERE ${where(floor)}`,
        signal,
      );
      let oldestNew = Infinity;
      for (const r of keys) {
        const t = Number(r.t_ms);
        if (t < oldestNew && !seen.has(`${r.k}@${t}`)) oldestNew = t;
      }
      const rows =
        oldestNew === Infinity
          ? []
          : await this.store.rows<Record<string, unknown>>(
              `SELECT ${recordColumnsSql(table)} FROM ${table.table} WHERE ${where(oldestNew)} ORDER BY t_ms, ${id}`,
              signal,
            );
      for (const row of rows) {
        const t = Number(row.t_ms);
        const key = `${String(row[ID_FIELD])}@${t}`;
        if (seen.has(key)) continue;
        seen.set(key, t);
        out.push({ t, zone, row });
        if (t > (this.newest.get(zone) ?? -Infinity)) this.newest.set(zone, t);
      }
      const cp = checkpoints.get(zone);
      const next = cp !== undefined ? cp : (this.newest.get(zone) ?? floor) - this.o.overlapMs;
      if (next > floor) {
        this.floor.set(zone, next);
        for (const [key, t] of seen) if (t < next) seen.delete(key);
      }
    }
    out.sort((a, b) => a.t - b.t || a.zone - b.zone);
    return out.map((x) => entryOfRow(x.row));
  }

  /** The zones' checkpoints (every record before it is stored), where a shipper wrote one. */
  private async checkpoints(signal?: AbortSignal): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const { database } = this.store.names;
    const state = stateTableName(this.store.names);
    if (!this.hasState) {
      const [row] = await this.store.rows<{ n: string }>(
        `SELECT count() AS n FROM system.tables WHERE database = ${sqlLiteral(database)} AND name = ${sqlLiteral(state)}`,
        signal,
      );
      this.hasState = Number(row?.n ?? 0) > 0;
      if (!this.hasState) return out;
    }
    for (const zone of this.o.zones) {
      const row = await this.store.readState(zone, 'checkpoint');
      if (row) out.set(zone, row.value);
    }
    return out;
  }
}
