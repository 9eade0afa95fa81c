import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Cond, DbRef, EngineLimits, EngineRequest, EngineStmt, EngineUsage, HostCall, HostReply } from './engine-protocol';

/** The engine could not answer: it died (and was restarted), or it was stuck and had to be killed. */
export class EngineFailure extends Error {
  constructor(
    message: string,
    readonly reason: 'crashed' | 'stuck' | 'unavailable',
  ) {
    super(message);
  }
}

export interface EngineSupervisorOptions {
  limits: EngineLimits;
  /** How long past the statement limit an unresponsive engine is given before it is killed. */
  graceMs?: number;
  /** The engine process died: every connection it held is gone (generation is the one that died). */
  onRestart?(info: { generation: number; reason: string }): void;
  /** What each request cost on which database (usage and statistics routes). */
  onUsage?(database: string, usage: EngineUsage, ms: number): void;
}

export interface EngineStats {
  starts: number;
  crashes: number;
  /** Engines killed because they did not answer within the statement limit plus the grace. */
  killedStuck: number;
}

interface Pending {
  resolve(reply: HostReply): void;
  reject(error: EngineFailure): void;
  /** A cursor's entries as they come. */
  chunk?(text: string): void;
}

/** A cursor running in the engine: see EngineSupervisor.cursor. */
export interface EngineCursor {
  /** Settles when the engine is done with the cursor (its connection is free again). */
  done: Promise<{ autocommit: boolean }>;
  /** One chunk was passed on: the engine may send another. */
  credit(): void;
  /** The reader went away: the engine stops the statement. */
  cancel(): void;
}

/** The engine process's entry: a sibling file, .ts under tsx (tests) and .js in the bundle. */
function hostEntry(): { file: string; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return { file: fileURLToPath(new URL('./engine-host.ts', here)), execArgv: ['--import', import.meta.resolve('tsx')] };
  }
  return { file: fileURLToPath(new URL('./engine-host.js', here)), execArgv: [] };
}

/** The first line of a Rust panic (or the last lines of stderr) say why the engine died. */
function crashReason(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const panic = /panicked at [^\n]*\n([^\n]+)/.exec(stderr);
  const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
  return panic ? `${how}: ${panic[1]!.trim().slice(0, 200)}` : how;
}

/**
 * Runs the database engine in a child process and keeps it running: a crash answers the requests
 * in flight with an EngineFailure and starts a new engine; an engine that stops answering (a
 * statement stuck where it cannot be interrupted) is killed after the statement limit plus grace.
 */
export class EngineSupervisor {
  private child: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private gen = 0;
  private lastHeard = 0;
  private watchdog: NodeJS.Timeout | null = null;
  private killedFor: string | null = null;
  private stderrTail = '';
  private closed = false;
  private lastStart = 0;
  readonly stats: EngineStats = { starts: 0, crashes: 0, killedStuck: 0 };
  private readonly graceMs: number;

  constructor(private readonly opts: EngineSupervisorOptions) {
    this.graceMs = opts.graceMs ?? 2000;
  }

  /** Changes with every engine process: connections of an older generation are gone. */
  get generation(): number {
    return this.gen;
  }

  /** Calls sent to the engine and not answered yet (tests wait on a statement being run). */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Process id of the running engine (tests), or null. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  async run(conn: number, db: DbRef, readOnly: boolean, request: EngineRequest): Promise<{ json: string; autocommit: boolean; ownState: boolean }> {
    const started = Date.now();
    const reply = await this.call((id) => ({ op: 'run', id, conn, db, readOnly, request }));
    if (reply.op !== 'done') throw new EngineFailure('the database engine gave an unexpected answer', 'unavailable');
    if (reply.usage) this.opts.onUsage?.(db.name, reply.usage, Date.now() - started);
    return { json: reply.json, autocommit: reply.autocommit, ownState: reply.ownState };
  }

  /**
   * Runs a batch as a cursor: `onChunk` receives its entries (NDJSON text) while the rows are
   * read; the engine pauses after a few chunks until `credit()` says one was passed on.
   */
  cursor(conn: number, db: DbRef, readOnly: boolean, steps: { condition: Cond | null; stmt: EngineStmt }[], onChunk: (text: string) => void): EngineCursor {
    let callId: number | null = null;
    let cancelled = false;
    const started = Date.now();
    const done = this.call((id) => {
      callId = id;
      if (cancelled) queueMicrotask(() => this.post({ op: 'cursor-cancel', id }));
      return { op: 'cursor', id, conn, db, readOnly, steps };
    }, onChunk).then((reply) => {
      if (reply.op !== 'done') throw new EngineFailure('the database engine gave an unexpected answer', 'unavailable');
      if (reply.usage) this.opts.onUsage?.(db.name, reply.usage, Date.now() - started);
      return { autocommit: reply.autocommit };
    });
    return {
      done,
      credit: () => {
        if (callId !== null) this.post({ op: 'cursor-credit', id: callId });
      },
      cancel: () => {
        cancelled = true;
        if (callId !== null) this.post({ op: 'cursor-cancel', id: callId });
      },
    };
  }

  async ensure(db: DbRef): Promise<void> {
    await this.call((id) => ({ op: 'ensure', id, db }));
  }

  /** The stream holding this connection is gone; a connection of a dead engine needs nothing. */
  release(conn: number, generation: number): void {
    if (generation === this.gen) this.post({ op: 'release', conn });
  }

  /** The client of a request went away: stop its statement. */
  interrupt(conn: number, generation: number): void {
    if (generation === this.gen) this.post({ op: 'interrupt', conn });
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child ?? (await this.starting?.catch(() => null)) ?? null;
    this.stopWatchdog();
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      // the child and the timer are ref'd: the process waits for the engine's end instead of
      // exiting under a pending close (and leaving the engine to finish its statement alone)
      const kill = setTimeout(() => child.kill('SIGKILL'), 1000);
      child.ref();
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      // the engine exits when its IPC channel closes; SIGKILL if it is stuck in a statement
      child.disconnect();
    });
  }

  private post(call: HostCall): void {
    const child = this.child;
    if (child?.connected) child.send(call);
  }

  private async call(make: (id: number) => HostCall, chunk?: (text: string) => void): Promise<HostReply> {
    if (this.closed) throw new EngineFailure('the database engine is shut down', 'unavailable');
    const child = await this.start();
    const id = this.nextId++;
    return new Promise<HostReply>((resolve, reject) => {
      if (this.pending.size === 0) this.lastHeard = Date.now();
      this.pending.set(id, {
        resolve: (reply) => (reply.op === 'failed' ? reject(new EngineFailure(reply.message, 'unavailable')) : resolve(reply)),
        reject,
        chunk,
      });
      this.startWatchdog();
      child.send(make(id));
    });
  }

  private start(): Promise<ChildProcess> {
    if (this.child) return Promise.resolve(this.child);
    this.starting ??= this.spawn().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private spawn(): Promise<ChildProcess> {
    const { file, execArgv } = hostEntry();
    this.stderrTail = '';
    this.lastStart = Date.now();
    this.stats.starts++;
    const child = fork(file, [], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, BURROW_ENGINE_LIMITS: JSON.stringify(this.opts.limits) },
    });
    child.stderr!.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-4000);
      if (process.env.BURROW_EMULATOR_DEBUG) process.stderr.write(`emulator database engine: ${d.toString()}`);
    });
    child.unref();
    return new Promise<ChildProcess>((resolve, reject) => {
      const failed = (why: string) => reject(new EngineFailure(`the database engine could not start: ${why}`, 'unavailable'));
      child.once('error', (e) => failed(e.message));
      child.once('exit', (code, signal) => {
        if (this.child !== child) failed(crashReason(code, signal, this.stderrTail));
        else this.exited(code, signal);
      });
      child.on('message', (reply: HostReply) => {
        this.lastHeard = Date.now();
        if (reply.op === 'ready') {
          this.child = child;
          // an idle engine must not keep the emulator's process alive; the channel is ref'd only while calls are out
          this.channelRef(false);
          resolve(child);
          return;
        }
        if (reply.op === 'pong') return;
        if (reply.op === 'chunk') return this.pending.get(reply.id)?.chunk?.(reply.text);
        const p = this.pending.get(reply.id);
        if (!p) return;
        this.pending.delete(reply.id);
        if (this.pending.size === 0) this.stopWatchdog();
        p.resolve(reply);
      });
    });
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.child = null;
    const reason = this.killedFor ?? crashReason(code, signal, this.stderrTail);
    this.killedFor = null;
    const generation = this.gen++;
    this.stopWatchdog();
    const failure = new EngineFailure(reason, this.closed ? 'unavailable' : reason.startsWith('stuck') ? 'stuck' : 'crashed');
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(failure);
    if (this.closed) return;
    this.stats.crashes++;
    this.opts.onRestart?.({ generation, reason });
    // start the next engine now (not when the next request waits for it), unless it died right after starting
    if (Date.now() - this.lastStart > 2000) this.start().catch(() => {});
  }

  private startWatchdog(): void {
    this.channelRef(true);
    if (this.watchdog) return;
    const limit = this.opts.limits.statementTimeoutMs + this.graceMs;
    this.watchdog = setInterval(
      () => {
        const child = this.child;
        if (!child || this.pending.size === 0) return this.stopWatchdog();
        if (Date.now() - this.lastHeard > limit) {
          this.stats.killedStuck++;
          this.killedFor = `stuck: the engine did not answer for ${limit} ms (a statement past the ${this.opts.limits.statementTimeoutMs} ms limit that could not be interrupted)`;
          child.kill('SIGKILL');
          return;
        }
        this.post({ op: 'ping' });
      },
      Math.min(250, Math.max(20, Math.floor(limit / 4))),
    );
    this.watchdog.unref();
  }

  private stopWatchdog(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    if (this.pending.size === 0) this.channelRef(false);
  }

  /** Keeps the event loop alive while requests wait for the engine, and not otherwise. */
  private channelRef(on: boolean): void {
    const channel = (this.child as (ChildProcess & { channel?: { ref(): void; unref(): void } }) | null)?.channel;
    if (on) channel?.ref();
    else channel?.unref();
  }
}
