/**
 * The emulator's database engine process (started by engine-supervisor.ts with an IPC channel).
 * It holds every SQLite connection; the parent keeps HTTP, tokens, streams and batons. If libsql
 * aborts this process, or a statement will not stop, the parent restarts it and keeps serving.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import LibsqlSync from 'libsql';
import { Random } from '../random';
import { DATABASES, SEED_EPOCH } from './databases';
import { Connection } from './engine';
import { BUSY_WAIT_MS, runEngineRequest } from './engine-run';
import { WriteGate } from './write-gate';
import { CursorWriter, runCursor } from './engine-cursor';
import { usageOf } from './engine-usage';
import { MAX_CONNECTIONS, type DbRef, type EngineLimits, type HostCall, type HostReply } from './engine-protocol';

const POOL_SIZE = 4;

class TooManyConnections extends Error {
  constructor() {
    super(`Too many connections: the database engine already holds ${MAX_CONNECTIONS} (one per stream that ran SQL); close idle streams or retry later`);
  }
}

function readLimits(): EngineLimits {
  const defaults: EngineLimits = { statementTimeoutMs: 5000, maxResponseBytes: 10 * 1024 * 1024 };
  try {
    return { ...defaults, ...(JSON.parse(process.env.BURROW_ENGINE_LIMITS ?? '{}') as Partial<EngineLimits>) };
  } catch {
    return defaults;
  }
}

const limits = readLimits();
const conns = new Map<number, Promise<Connection>>();
const idle = new Map<string, Connection[]>();
const seeding = new Map<string, Promise<void>>();
const gates = new Map<string, WriteGate>();

function gateOf(file: string): WriteGate {
  let gate = gates.get(file);
  if (!gate) gates.set(file, (gate = new WriteGate(BUSY_WAIT_MS)));
  return gate;
}

function send(reply: HostReply): void {
  if (process.connected) process.send!(reply);
}

/**
 * Seeds a database file once. A marker written after the seed tells a restarted engine that the
 * file is complete; without it (the engine died while seeding) the file is made again.
 */
function seedFile(db: DbRef): void {
  const marker = `${db.file}.seeded`;
  if (fs.existsSync(marker)) return;
  for (const f of [db.file, `${db.file}-wal`, `${db.file}-shm`]) fs.rmSync(f, { force: true });
  const def = DATABASES.find((d) => d.name === db.name);
  if (!def) throw new Error(`unknown database ${db.name}`);
  const conn = new LibsqlSync(db.file);
  try {
    conn.exec('PRAGMA journal_mode = WAL');
    conn.exec('PRAGMA foreign_keys = ON');
    // a fixed clock for the data: same seed, same rows, whatever the day
    def.seed(conn, new Random(db.seedState), SEED_EPOCH);
  } finally {
    conn.close();
  }
  fs.writeFileSync(marker, '');
}

function ensure(db: DbRef): Promise<void> {
  let p = seeding.get(db.file);
  if (!p) {
    p = Promise.resolve().then(() => seedFile(db));
    p.catch(() => seeding.delete(db.file));
    seeding.set(db.file, p);
  }
  return p;
}

function connection(id: number, db: DbRef): Promise<Connection> {
  let c = conns.get(id);
  if (!c) {
    if (conns.size >= MAX_CONNECTIONS) throw new TooManyConnections();
    c = ensure(db).then(() => idle.get(db.file)?.pop() ?? Connection.open(db.file, limits, gateOf(db.file)));
    c.catch(() => conns.delete(id));
    conns.set(id, c);
  }
  return c;
}

async function release(id: number): Promise<void> {
  const c = conns.get(id);
  if (!c) return;
  conns.delete(id);
  let conn: Connection;
  try {
    conn = await c;
  } catch {
    return;
  }
  try {
    if (!conn.reusable) throw new Error('a statement was left running on it');
    await conn.reset();
  } catch {
    await conn.close().catch(() => {});
    return;
  }
  const pool = idle.get(conn.file) ?? [];
  idle.set(conn.file, pool);
  if (pool.length < POOL_SIZE) pool.push(conn);
  else await conn.close().catch(() => {});
}

async function interrupt(id: number): Promise<void> {
  const c = conns.get(id);
  if (c) (await c.catch(() => null))?.interrupt();
}

const cursors = new Map<number, CursorWriter>();

const tooMany = (error: TooManyConnections) => ({ message: error.message, code: 'TOO_MANY_CONNECTIONS' });

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function handle(call: HostCall): Promise<void> {
  switch (call.op) {
    case 'ping':
      return send({ op: 'pong' });
    case 'release':
      return release(call.conn);
    case 'interrupt':
      return interrupt(call.conn);
    case 'ensure':
      try {
        await ensure(call.db);
        send({ op: 'ensured', id: call.id });
      } catch (error) {
        send({ op: 'failed', id: call.id, message: `could not create the database ${call.db.name}: ${messageOf(error)}` });
      }
      return;
    case 'cursor-credit':
      return cursors.get(call.id)?.credit();
    case 'cursor-cancel':
      return cursors.get(call.id)?.cancel();
    case 'cursor': {
      const writer = new CursorWriter((text) => send({ op: 'chunk', id: call.id, text }));
      cursors.set(call.id, writer);
      try {
        const conn = await connection(call.conn, call.db);
        await conn.setReadOnly(call.readOnly);
        const usage = await runCursor(call.steps, conn, writer);
        send({ op: 'done', id: call.id, json: '', autocommit: conn.autocommit, ownState: !conn.reusable, usage });
      } catch (error) {
        if (error instanceof TooManyConnections) {
          writer.line(JSON.stringify({ type: 'error', error: tooMany(error) }));
          writer.flush();
          send({ op: 'done', id: call.id, json: '', autocommit: true, ownState: false });
          return;
        }
        send({ op: 'failed', id: call.id, message: messageOf(error) });
      } finally {
        cursors.delete(call.id);
      }
      return;
    }
    case 'run':
      try {
        const conn = await connection(call.conn, call.db);
        await conn.setReadOnly(call.readOnly);
        const result = await runEngineRequest(call.request, conn);
        send({ op: 'done', id: call.id, json: JSON.stringify(result), autocommit: conn.autocommit, ownState: !conn.reusable, usage: usageOf(result) });
      } catch (error) {
        if (error instanceof TooManyConnections) {
          send({ op: 'done', id: call.id, json: JSON.stringify({ type: 'error', error: tooMany(error) }), autocommit: true, ownState: false });
          return;
        }
        send({ op: 'failed', id: call.id, message: messageOf(error) });
      }
  }
}

process.on('message', (call: HostCall) => {
  void handle(call);
});
// the parent went away (closed, crashed or killed): nothing left to serve
process.on('disconnect', () => process.exit(0));
/*
 * 'disconnect' needs this thread, which a statement can hold for as long as the statement limit
 * (up to an hour): a thread of its own notices the parent's death (we are handed to another
 * parent) and ends the process at once, so no orphan engine outlives a SIGKILLed emulator.
 */
const parentWatch = new Worker(
  `const { workerData } = require('node:worker_threads');
   setInterval(() => { if (process.ppid !== workerData) process.kill(process.pid, 'SIGKILL'); }, 250);`,
  { eval: true, workerData: process.ppid, resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 } },
);
parentWatch.unref();
send({ op: 'ready' });
