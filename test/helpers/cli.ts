import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BURROW_BIN, TEST_CACHE_HOME } from './pty';
import { scaled } from './wait';

/** The built binary's output and how it ended. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /**
   * The child's whole environment: nothing is inherited from the test process. XDG_CACHE_HOME
   * is TEST_CACHE_HOME unless given (set it to undefined for none).
   */
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed (closed at once by default). */
  stdin?: string;
  /** The child is killed after this long (scaled by the machine's load), so a hung binary never hangs the run (default 30 s). */
  timeoutMs?: number;
}

export interface StartedCli {
  child: ChildProcessWithoutNullStreams;
  done: Promise<CliRun>;
  /** stdout so far. */
  out: () => string;
}

/** Starts `burrow ARGS` (the built binary: `npm run build` first). */
export function spawnBurrow(args: readonly string[], options: CliOptions): StartedCli {
  if (!fs.existsSync(path.resolve(path.dirname(BURROW_BIN), '..', 'dist', 'cli.cjs'))) throw new Error('dist/cli.cjs is missing: run npm run build');
  const env = 'XDG_CACHE_HOME' in options.env ? options.env : { ...options.env, XDG_CACHE_HOME: TEST_CACHE_HOME };
  const child = spawn(process.execPath, [BURROW_BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // a child that exits before reading its stdin must not fail the test with EPIPE
  child.stdin.on('error', () => {});
  child.stdin.end(options.stdin ?? '');
  const guard = setTimeout(() => child.kill('SIGKILL'), scaled(options.timeoutMs ?? 30_000));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', (error) => {
      clearTimeout(guard);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done, out: () => stdout };
}

/** Runs `burrow ARGS` to the end. */
export function runBurrow(args: readonly string[], options: CliOptions): Promise<CliRun> {
  return spawnBurrow(args, options).done;
}
