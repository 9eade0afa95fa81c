import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Random } from '../random';
import { DATABASES, type DatabaseDef } from './databases';
import type { DbRef } from './engine-protocol';
import type { EngineSupervisor } from './engine-supervisor';

export { PRIMARY_DATABASE, type DatabaseDef } from './databases';

/** One database: a SQLite file (WAL) in a temp dir, seeded by the engine process on first use. */
export class HostedDatabase {
  private seeded = false;
  readonly file: string;
  /** What the engine process needs to open (and first seed) this database. */
  readonly ref: DbRef;

  constructor(
    readonly def: DatabaseDef,
    dir: string,
    random: Random,
    private readonly engine: EngineSupervisor,
  ) {
    this.file = path.join(dir, `${def.name}.db`);
    this.ref = { name: def.name, file: this.file, seedState: random.snapshot() };
  }

  /** Creates and seeds the file the first time anyone needs it (emulator start stays fast). */
  async ensure(): Promise<void> {
    if (this.seeded) return;
    await this.engine.ensure(this.ref);
    this.seeded = true;
  }

  /** Bytes of the file and its WAL. */
  sizeBytes(): number {
    let bytes = 0;
    for (const f of [this.file, `${this.file}-wal`]) {
      try {
        bytes += fs.statSync(f).size;
      } catch {
        // not created yet, or no WAL yet
      }
    }
    return bytes;
  }

  /** Size of the file and its WAL, as the management API shows it ("1.2 MB"). */
  currentSize(): string {
    const bytes = this.sizeBytes();
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  }
}

/** The databases of the account, in a temp dir that is removed on close. */
export class Catalog {
  readonly dir: string;
  readonly databases: HostedDatabase[];
  private readonly cleanup = () => this.removeDir();

  constructor(random: Random, engine: EngineSupervisor) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-db-'));
    this.databases = DATABASES.map((d) => new HostedDatabase(d, this.dir, random.fork(`db-${d.name}`), engine));
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
    process.off('exit', this.cleanup);
    this.removeDir();
  }

  private removeDir(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
