import { spawn, type ChildProcess } from 'node:child_process';
import type { ReadyInfo } from '../../src/emulator/ready-info';

/**
 * `burrow emulator` in its own process (the built binary), so that the program measured does not
 * share its CPU thread with the server. Resolves with the ready line.
 */
export interface EmulatorChild {
  info: ReadyInfo;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Emulators still running: stopped when the benchmark process ends, however it ends. */
const running = new Set<ChildProcess>();
let cleanupInstalled = false;

function stopAllOnExit(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  const killAll = () => {
    for (const child of running) child.kill('SIGTERM');
  };
  process.on('exit', killAll);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(code);
    });
  }
}

export async function startEmulatorChild(args: string[] = []): Promise<EmulatorChild> {
  stopAllOnExit();
  const child = spawn(process.execPath, ['bin/burrow.js', 'emulator', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const info = await new Promise<ReadyInfo>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the emulator did not start: ${stderr}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      resolve(JSON.parse(out.slice(0, nl)) as ReadyInfo);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}): ${stderr}`));
    });
  });
  return {
    info,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

/** Environment pointing burrow at the emulator. */
export function burrowEnv(info: ReadyInfo, extra: Record<string, string> = {}): Record<string, string> {
  return {
    BURROW_API_KEY: info.accessKey,
    BURROW_BASE_URL: info.baseUrl,
    BURROW_LOGGING_URL: info.loggingUrl,
    SERVICE_DATABASE_URL: info.databaseUrl,
    SERVICE_DATABASE_AUTH_TOKEN: info.databaseToken,
    ...extra,
  };
}
