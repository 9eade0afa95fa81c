import { type Command, UsageError } from './types';
import { terminalSafe } from '../text/terminal-safe';

/** The environment that points burrow at a running emulator, as shell exports (one per line). */
export function emulatorEnv(info: { baseUrl: string; loggingUrl: string; databaseUrl: string; accessKey: string; databaseToken: string }): string {
  const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  const vars: [string, string][] = [
    ['BURROW_API_KEY', info.accessKey],
    ['BURROW_BASE_URL', info.baseUrl],
    ['BURROW_LOGGING_URL', info.loggingUrl],
    ['SERVICE_DATABASE_URL', info.databaseUrl],
    ['SERVICE_DATABASE_AUTH_TOKEN', info.databaseToken],
  ];
  return vars.map(([k, v]) => `export ${k}=${quote(v)}\n`).join('');
}

export const emulatorCommand: Command = {
  name: 'emulator',
  summary: 'run the local platform emulator in the foreground',
  usage: `burrow emulator [--port N] [--seed S] [--log-rate N] [--ingest-delay 20s] [--statement-timeout 5s] [--faults SPEC]
                [--clock-start TIME] [--write-env FILE]

Serves management on port N, logging on N+1 and the database on N+2 (port 0, the default,
picks free ports). When ready it prints one JSON line:
  {"baseUrl","loggingUrl","databaseUrl","accessKey","databaseToken","readOnlyDatabaseToken","pullZoneIds"}
Stops cleanly on SIGINT/SIGTERM, and when the burrow that started it dies. Same seed, same
data; the access key and the token-signing secret are random on every start.

  --port N            management port (0 = any free port)
  --seed S            data seed (default 1)
  --log-rate N        log records per second per logging-enabled zone (default 3)
  --ingest-delay D    upper bound of the random ingestion delay of log records (default 20s)
  --statement-timeout D  a database statement running longer is interrupted (default 5s)
  --faults SPEC       inject faults on every origin, e.g.
                      latency=300ms,error=0.05,reset=0.02,malformed=0.02,ratelimit=0.05
  --clock-start TIME  the emulator's clock starts at TIME (ISO date-time, e.g. 2026-03-02T10:00:00Z,
                      or epoch ms) and runs from there; with --seed, the same log records at the
                      same timestamps on every run (default: the real time)
  --write-env FILE    when ready, also write FILE (mode 0600: it holds the access key): the
                      environment that points burrow at this emulator, as shell exports. Every
                      command run with it (. FILE) reads and changes the same platform:
                        burrow emulator --write-env /tmp/burrow-emulator.env &
                        . /tmp/burrow-emulator.env   # once the file is there
                        burrow shield guardian ZONE --set isEnabled=false --yes
                        burrow get api-guardian ZONE  # shows the change`,
  options: {
    port: { type: 'string' },
    seed: { type: 'string' },
    'log-rate': { type: 'string' },
    'ingest-delay': { type: 'string' },
    'statement-timeout': { type: 'string' },
    faults: { type: 'string' },
    'clock-start': { type: 'string' },
    // not --env-file: Node 20 reads an --env-file anywhere in its command line as its own option
    'write-env': { type: 'string' },
  },
  async run({ values, io }) {
    const { startEmulator } = await import('../emulator/server');
    const { parseFaults, parseDuration } = await import('../emulator/faults');
    const { parseClockStart } = await import('../emulator/clock');
    const num = (name: string, min: number, max: number): number | undefined => {
      const raw = values[name];
      if (raw === undefined) return undefined;
      const n = Number(raw);
      if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
        throw new UsageError(`--${name} must be a number from ${min} to ${max}, got "${String(raw)}"`);
      }
      return n;
    };
    const port = num('port', 0, 65533);
    if (port !== undefined && !Number.isInteger(port)) throw new UsageError('--port must be a whole number');
    let ingestDelayMs: number | undefined;
    let statementTimeoutMs: number | undefined;
    let faults;
    let clockStart: number | undefined;
    if (typeof values['clock-start'] === 'string') {
      clockStart = parseClockStart(values['clock-start']);
      if (Number.isNaN(clockStart))
        throw new UsageError(`--clock-start must be an ISO date-time (2026-03-02T10:00:00Z) or epoch ms, got "${values['clock-start']}"`);
    }
    try {
      if (typeof values['ingest-delay'] === 'string') ingestDelayMs = parseDuration(values['ingest-delay']);
      if (typeof values['statement-timeout'] === 'string') {
        statementTimeoutMs = parseDuration(values['statement-timeout']);
        if (statementTimeoutMs < 10 || statementTimeoutMs > 3_600_000)
          throw new Error(`--statement-timeout must be from 10ms to 1h, got "${values['statement-timeout']}"`);
      }
      if (typeof values.faults === 'string') faults = parseFaults(values.faults);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const emu = await startEmulator({
      port,
      seed: num('seed', 0, 2 ** 32 - 1),
      logRate: num('log-rate', 0, 10_000),
      ingestDelayMs,
      statementTimeoutMs,
      faults,
      clockStart,
    });
    if (typeof values['write-env'] === 'string') {
      const { writePrivateFile } = await import('../config/private-file');
      writePrivateFile(values['write-env'], emulatorEnv(emu.info));
    }
    io.stdout.write(JSON.stringify(emu.info) + '\n');
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const { watchParent } = await import('../emulator/parent-watch');
    await new Promise<void>((resolve) => {
      const stop = () => {
        // a second signal gets the default action: the process ends at once
        for (const s of signals) process.off(s, stop);
        resolve();
      };
      for (const s of signals) process.on(s, stop);
      // started by burrow itself (an IPC channel): stop when that parent dies, even by SIGKILL
      if (process.send) watchParent(stop);
    });
    // whatever might still hold the event loop after close (a stuck stop), the process ends soon
    setTimeout(() => process.exit(0), 5000).unref();
    try {
      await emu.close();
    } catch (error) {
      io.stderr.write(`burrow emulator: while stopping: ${terminalSafe((error as Error).message)}\n`);
    }
    return 0;
  },
};
