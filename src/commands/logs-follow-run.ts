import type { ApiError } from '../api/errors';
import { OrderedRelease, type FollowEngine } from '../log-engine/index';
import { terminalSafe } from '../text/terminal-safe';
import { ALERT_EXIT_CODE, drained, watchFollow, type AlertOptions } from './logs-alerts';
import type { Plan } from './logs-plan';
import type { RecordWriter } from './logs-text';
import { zoneError } from './logs-zones';
import type { Io } from './types';

export type Interrupt = 'SIGINT' | 'SIGTERM';

/** The shell's convention: 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM, as the console). */
export const exitCodeOf = (signal: Interrupt): number => (signal === 'SIGINT' ? 130 : 143);

/** Resolves on SIGINT/SIGTERM with the signal (and gives a way to stop listening). */
export function interrupted(): { promise: Promise<Interrupt>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<Interrupt>((resolve) => {
    const onInt = () => resolve('SIGINT');
    const onTerm = () => resolve('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    dispose = () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
  });
  return { promise, dispose };
}

/** Resolves when stdout's reader went away (EPIPE). */
export function pipeClosed(io: Io): { promise: Promise<'closed'>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<'closed'>((resolve) => {
    const on = (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') resolve('closed');
    };
    io.stdout.on('error', on);
    dispose = () => io.stdout.off('error', on);
  });
  return { promise, dispose };
}

/** `--follow`: prints records as the engine settles them until the engine ends, a signal, a closed pipe or a firing alert; the exit code. */
export async function runFollow(plan: Plan, engineOf: () => FollowEngine, writer: RecordWriter, io: Io, alerts: AlertOptions | null = null): Promise<number> {
  const engine = engineOf();
  const watch = alerts ? watchFollow(alerts, engine, io) : null;
  const release = new OrderedRelease((e) => writer.write(e));
  let failure: ApiError | null = null;
  // per zone: the warning shown (null: none) and whether its failure was reported
  const warned = new Map<number, string | null>();
  const reported = new Set<number>();
  const several = plan.zones.length > 1;
  engine.onRecords((entries, times) => release.add(entries, times));
  engine.subscribe(() => {
    release.release(engine.settledBefore());
    for (const z of engine.status().zones) {
      const who = several ? `pull zone ${z.zoneId}: ` : '';
      if (z.state === 'failed' && z.error) {
        failure ??= several ? zoneError(z.zoneId, z.error) : z.error;
        // the others go on: say so at once rather than at the end
        if (several && !reported.has(z.zoneId)) {
          reported.add(z.zoneId);
          io.stderr.write(`burrow: ${who}${terminalSafe(z.error.message)}; stopped following it, the other zones go on\n`);
        }
      }
      if ((z.state === 'retrying' || z.state === 'rate-limited') && z.error && (warned.get(z.zoneId) ?? null) === null) {
        warned.set(z.zoneId, z.error.message);
        io.stderr.write(`burrow: ${who}${terminalSafe(z.error.message)}; retrying\n`);
      } else if (z.state === 'following' && z.consecutiveErrors === 0 && (warned.get(z.zoneId) ?? null) !== null) {
        warned.set(z.zoneId, null);
        io.stderr.write(`burrow: ${who}recovered\n`);
      }
    }
  });
  const signal = interrupted();
  const pipe = pipeClosed(io);
  try {
    engine.start();
    const why = await Promise.race([engine.done.then(() => 'done' as const), signal.promise, pipe.promise, ...(watch ? [watch.fired] : [])]);
    watch?.dispose();
    await engine.stop();
    if (why === 'closed') return 0;
    release.flush();
    writer.end();
    if (why === 'alert') {
      await drained(io.stdout);
      return ALERT_EXIT_CODE;
    }
    if (why === 'SIGINT' || why === 'SIGTERM') return exitCodeOf(why);
    if (failure) throw failure;
    return 0;
  } finally {
    watch?.dispose();
    signal.dispose();
    pipe.dispose();
  }
}
