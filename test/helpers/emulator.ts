import { after } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server';
import type { EmulatorOptions } from '../../src/emulator/world';
import { createApi, type Api } from '../../src/api/index';
import { LogsApi } from '../../src/api/logs/index';
import { LogPageReader } from '../../src/log-engine/index';

/** Starts an in-process emulator on 127.0.0.1 port 0 and stops it when the test file ends. */
export async function useEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ seed: 1, ...options, port: 0, host: '127.0.0.1' });
  after(() => emu.close());
  return emu;
}

/**
 * An Api pointed at the emulator, closed when the test file ends. Its logs client reads the
 * emulator's clock (so a pinned or frozen emulator clock is the client's "now" too); the request
 * budget paces by the real time, as requests really take it.
 */
export function apiFor(emu: RunningEmulator): Api {
  const api = createApi({ baseUrl: emu.info.baseUrl, loggingUrl: emu.info.loggingUrl, apiKey: emu.info.accessKey });
  after(() => api.close());
  return { ...api, logs: new LogsApi(api.logging, { now: emu.world.now, budgetOptions: { now: Date.now }, pageReader: new LogPageReader() }) };
}

/** Environment that points the real binary at a running emulator. */
export function envFor(emu: RunningEmulator, extra: Record<string, string> = {}): Record<string, string> {
  return {
    BURROW_API_KEY: emu.info.accessKey,
    BURROW_BASE_URL: emu.info.baseUrl,
    BURROW_LOGGING_URL: emu.info.loggingUrl,
    SERVICE_DATABASE_URL: emu.info.databaseUrl,
    SERVICE_DATABASE_AUTH_TOKEN: emu.info.databaseToken,
    ...extra,
  };
}
