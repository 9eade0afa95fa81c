import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'libsql';
import type { Random } from '../random';
import { Connection } from './engine';
import { seedAnalytics, seedInventory, seedShop } from './seed';

export const PRIMARY_DATABASE = { id: 'db_01KCHBG8C5KSFGG0VRNFQ7EK7X', name: 'burrow-demo' };

export interface DatabaseDef {
  id: string;
  name: string;
  storageRegion: string;
  primaryRegions: string[];
  replicasRegions: string[];
  /** The primary database is served at the root of the database origin, the others under /db/{name}/. */
  primary: boolean;
  seed(db: InstanceType<typeof Database>, random: Random, now: number): void;
}

export const DATABASES: DatabaseDef[] = [
  { ...PRIMARY_DATABASE, storageRegion: 'eu-central-1', primaryRegions: ['DE'], replicasRegions: ['NY', 'SG', 'UK'], primary: true, seed: seedShop },
  { id: 'db_01KCHD2M7Q9X4T6V8W0Y3Z5N1P', name: 'analytics-events', storageRegion: 'us-east-1', primaryRegions: ['NY'], replicasRegions: ['LA'], primary: false, seed: seedAnalytics },
  { id: 'db_01KD0R5S7T9V1W3X5Y7Z9A2B4C', name: 'inventory-eu', storageRegion: 'eu-central-1', primaryRegions: ['AMS'], replicasRegions: [], primary: false, seed: (db, r) => seedInventory(db, r) },
];

const POOL_SIZE = 4;
/** "Now" as far as the seeded data is concerned. */
const SEED_EPOCH = Date.UTC(2026, 5, 30, 12, 0, 0);

/** One database: a SQLite file (WAL) in a temp dir, seeded on first use, and a small connection pool. */
export class HostedDatabase {
  private seeded = false;
  private readonly idle: Connection[] = [];
  readonly file: string;

  constructor(readonly def: DatabaseDef, dir: string, private readonly random: Random) {
    this.file = path.join(dir, `${def.name}.db`);
  }

  /** Creates and seeds the file the first time anyone needs it (emulator start stays fast). */
  ensure(): void {
    if (this.seeded) return;
    const db = new Database(this.file);
    try {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA foreign_keys = ON');
      // a fixed clock for the data: same seed, same rows, whatever the day
      this.def.seed(db, this.random, SEED_EPOCH);
    } finally {
      db.close();
    }
    this.seeded = true;
  }

  acquire(): Connection {
    this.ensure();
    return this.idle.pop() ?? new Connection(this.file);
  }

  release(conn: Connection): void {
    try {
      conn.reset();
    } catch {
      conn.close();
      return;
    }
    if (this.idle.length < POOL_SIZE) this.idle.push(conn);
    else conn.close();
  }

  /** Size of the file and its WAL, as the management API shows it ("1.2 MB"). */
  currentSize(): string {
    this.ensure();
    let bytes = 0;
    for (const f of [this.file, `${this.file}-wal`]) {
      try {
        bytes += fs.statSync(f).size;
      } catch {
        // no WAL yet
      }
    }
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  }

  close(): void {
    for (const c of this.idle.splice(0)) c.close();
  }
}

/** The databases of the account, in a temp dir that is removed on close. */
export class Catalog {
  readonly dir: string;
  readonly databases: HostedDatabase[];
  private readonly cleanup = () => this.removeDir();

  constructor(random: Random) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-db-'));
    this.databases = DATABASES.map((d) => new HostedDatabase(d, this.dir, random.fork(`db-${d.name}`)));
    process.once('exit', this.cleanup);
  }

  byId(id: string): HostedDatabase | undefined {
    return this.databases.find((d) => d.def.id === id);
  }

  byName(name: string): HostedDatabase | undefined {
    return this.databases.find((d) => d.def.name === name);
  }

  get primary(): HostedDatabase {
    return this.databases.find((d) => d.def.primary)!;
  }

  close(): void {
    for (const d of this.databases) d.close();
    process.off('exit', this.cleanup);
    this.removeDir();
  }

  private removeDir(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
