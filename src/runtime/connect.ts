import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createApi, type Api } from '../api/index';
import { registerSecret } from '../config/redact';
import { appendPrivateFile } from '../config/private-file';
import { stateDir } from '../config/paths';
import type { Settings } from '../config/settings';
import type { ReadyInfo } from '../emulator/ready-info';
import { UsageError, type Io } from './io';
import { terminalSafe } from '../text/terminal-safe';
import { LogPageReader } from '../log-engine/index';

/** How this run reaches the platform: the Api, and the database and emulator it talks to. */
export interface PlatformConnection {
  api: Api;
  settings: Settings;
  /** Set when burrow talks to an emulator that burrow started. */
  emulator: ReadyInfo | null;
  databaseUrl: string | null;
  databaseToken: string | null;
  close(): Promise<void>;
}

export const NO_CREDENTIALS =
  'no API key configured: set BURROW_API_KEY, add a profile to the config file (see the README), or pass --demo to use the built-in emulator';

export function debugSink(settings: Settings, io: Io, interactive: boolean): ((line: string) => void) | undefined {
  if (!settings.debug) return undefined;
  if (!interactive) return (line) => io.stderr.write(`debug: ${terminalSafe(line)}\n`);
  const file = path.join(stateDir(io.env), 'debug.log');
  return (line) => appendPrivateFile(file, `${new Date().toISOString()} ${line}\n`);
}

function connectionTo(
  settings: Settings,
  endpoints: ReadyInfo | null,
  debug: ((l: string) => void) | undefined,
  stop: () => Promise<void>,
): PlatformConnection {
  const api = createApi(
    {
      baseUrl: endpoints?.baseUrl ?? settings.baseUrl,
      loggingUrl: endpoints?.loggingUrl ?? settings.loggingUrl,
      apiKey: endpoints?.accessKey ?? settings.apiKey ?? '',
      loggingToken: endpoints ? null : settings.loggingToken,
      debug,
    },
    { pageReader: new LogPageReader() },
  );
  return {
    api,
    settings,
    emulator: endpoints,
    databaseUrl: endpoints?.databaseUrl ?? settings.databaseUrl,
    databaseToken: endpoints?.databaseToken ?? settings.databaseToken,
    async close() {
      await api.close();
      await stop();
    },
  };
}

/**
 * For non-interactive commands: the configured platform, or with --demo an emulator started
 * in this process. Without credentials and without --demo it refuses: a script must never get
 * demo data by accident.
 */
export async function connectNonInteractive(settings: Settings, io: Io, demo: boolean): Promise<PlatformConnection> {
  const debug = debugSink(settings, io, false);
  if (settings.target === 'emulator') {
    if (!demo) throw new UsageError(NO_CREDENTIALS);
    const { startEmulator } = await import('../emulator/server');
    const emu = await startEmulator({ seed: 1 });
    rememberSecrets(emu.info);
    return connectionTo(settings, emu.info, debug, () => emu.close());
  }
  return connectionTo(settings, null, debug, async () => {});
}

function rememberSecrets(info: ReadyInfo): void {
  registerSecret(info.accessKey);
  registerSecret(info.databaseToken);
  registerSecret(info.readOnlyDatabaseToken);
}

/** Starts `burrow emulator --port 0` as a child process and waits for its ready line. */
export async function startEmulatorChild(
  extraArgs: string[] = [],
  timeoutMs = 15_000,
): Promise<{ endpoints: ReadyInfo; child: ChildProcess; stop: () => Promise<void> }> {
  const launcher = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'burrow.js');
  const child = spawn(process.execPath, [launcher, 'emulator', '--port', '0', ...extraArgs], {
    // the IPC channel is the child's lifeline: the kernel closes it when this process dies, however it dies
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, BURROW_API_KEY: '' },
    detached: false,
  });
  (child as ChildProcess & { channel?: { unref(): void } }).channel?.unref();
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const endpoints = await new Promise<ReadyInfo>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`the emulator did not start within ${timeoutMs} ms${stderr ? `: ${stderr.trim()}` : ''}`));
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString();
      const nl = buffer.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(buffer.slice(0, nl)) as ReadyInfo);
      } catch {
        reject(new Error(`the emulator printed an unexpected first line: ${buffer.slice(0, nl)}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (code ${code}) before it was ready${stderr ? `: ${stderr.trim()}` : ''}`));
    });
  });
  rememberSecrets(endpoints);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    });
  return { endpoints, child, stop };
}

/** For the console: the configured platform, or (no credentials / --demo) an emulator child process. */
export async function connectInteractive(settings: Settings, io: Io): Promise<PlatformConnection & { emulatorChild: ChildProcess | null }> {
  const debug = debugSink(settings, io, true);
  if (settings.target === 'emulator') {
    const { endpoints, child, stop } = await startEmulatorChild();
    return { ...connectionTo(settings, endpoints, debug, stop), emulatorChild: child };
  }
  return { ...connectionTo(settings, null, debug, async () => {}), emulatorChild: null };
}
