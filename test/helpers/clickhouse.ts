import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { deadline } from './wait';

/**
 * A real ClickHouse server for a test file: Debian's clickhouse-server (18.16 here), started on
 * free loopback ports with its own config, users and data folder in a temporary directory, and
 * removed when stopped (or when the test process exits).
 *
 * Where the binary is absent the tests skip (scripts/run-tests.mjs says so once for the run);
 * with BURROW_REQUIRE_CLICKHOUSE=1 (set by .ci/run) a missing server fails instead.
 */

export const CLICKHOUSE_BINARY = process.env.BURROW_CLICKHOUSE_SERVER ?? '/usr/sbin/clickhouse-server';
export const CLICKHOUSE_CLIENT = process.env.BURROW_CLICKHOUSE_CLIENT ?? '/usr/bin/clickhouse-client';

export const clickhouseInstalled = fs.existsSync(CLICKHOUSE_BINARY);

/**
 * `skip` for node:test: false when the server can run, else the reason. Throws when the server is
 * required (BURROW_REQUIRE_CLICKHOUSE=1) but absent, so the file fails.
 */
export function clickhouseSkip(): string | false {
  if (clickhouseInstalled) return false;
  if (process.env.BURROW_REQUIRE_CLICKHOUSE === '1') {
    throw new Error(`BURROW_REQUIRE_CLICKHOUSE=1 but ${CLICKHOUSE_BINARY} is missing: apt-get install -y clickhouse-server clickhouse-client`);
  }
  return 'clickhouse-server is not installed (apt-get install -y clickhouse-server clickhouse-client)';
}

export interface ClickHouseServer {
  readonly host: string;
  readonly httpPort: number;
  readonly tcpPort: number;
  /** http://host:port */
  readonly httpUrl: string;
  /** clickhouse://default@host:port/default, as burrow takes it. */
  readonly storeUrl: string;
  readonly dir: string;
  /** Runs one statement over HTTP; the answer's text (throws with the server's message on an error). */
  query(sql: string, body?: string): Promise<string>;
  /** Stops the process (SIGKILL with `kill`), keeping the data; start() brings it back on the same ports. */
  stop(kill?: boolean): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export interface ClickHouseServerOptions {
  /** Loopback address to listen on (127.0.0.x); default 127.0.0.1. */
  host?: string;
  /** Fixed ports (a cluster's nodes share the HTTP port on different addresses). */
  httpPort?: number;
  tcpPort?: number;
  /** The <remote_servers> content (clusters), raw XML. */
  remoteServers?: string;
}

/** A port free on every one of `hosts`. */
export async function freePort(hosts: readonly string[] = ['127.0.0.1']): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, hosts[0], () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    let ok = true;
    for (const h of hosts.slice(1)) {
      ok = await new Promise<boolean>((resolve) => {
        const s = net.createServer();
        s.once('error', () => resolve(false));
        s.listen(port, h, () => s.close(() => resolve(true)));
      });
      if (!ok) break;
    }
    if (ok) return port;
  }
  throw new Error('no free port');
}

const live = new Set<ClickHouseServer>();
process.once('exit', () => {
  for (const s of live) {
    try {
      const pid = Number(fs.readFileSync(path.join(s.dir, 'pid'), 'utf8'));
      if (pid) process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    fs.rmSync(s.dir, { recursive: true, force: true });
  }
});

function configXml(dir: string, host: string, httpPort: number, tcpPort: number, remoteServers: string): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/server.err.log</errorlog><size>10M</size><count>1</count></logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>${host}</listen_host>
  <interserver_http_host>${host}</interserver_http_host>
  <max_connections>256</max_connections>
  <keep_alive_timeout>3</keep_alive_timeout>
  <max_concurrent_queries>50</max_concurrent_queries>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <mark_cache_size>67108864</mark_cache_size>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  <remote_servers>${remoteServers}</remote_servers>
  <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
  <max_session_timeout>3600</max_session_timeout>
  <default_session_timeout>60</default_session_timeout>
  <merge_tree><parts_to_delay_insert>3000</parts_to_delay_insert><parts_to_throw_insert>5000</parts_to_throw_insert></merge_tree>
</yandex>
`;
}

const USERS_XML = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage><load_balancing>random</load_balancing></default></profiles>
  <users><default><password></password><networks><ip>::/0</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`;

/** Starts a server; resolves once `SELECT 1` answers. */
export async function startClickHouse(options: ClickHouseServerOptions = {}): Promise<ClickHouseServer> {
  const host = options.host ?? '127.0.0.1';
  const httpPort = options.httpPort ?? (await freePort([host]));
  const tcpPort = options.tcpPort ?? (await freePort([host]));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-ch-'));
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) fs.mkdirSync(path.join(dir, sub));
  fs.writeFileSync(path.join(dir, 'config.xml'), configXml(dir, host, httpPort, tcpPort, options.remoteServers ?? ''));
  fs.writeFileSync(path.join(dir, 'users.xml'), USERS_XML);
  const httpUrl = `http://${host}:${httpPort}`;
  let child: ChildProcess | null = null;

  const query = async (sql: string, body?: string): Promise<string> => {
    const url = body === undefined ? httpUrl : `${httpUrl}/?query=${encodeURIComponent(sql)}`;
    const res = await fetch(url, { method: 'POST', body: body ?? sql });
    const text = await res.text();
    if (!res.ok) throw new Error(`ClickHouse ${res.status}: ${text.trim()}`);
    return text;
  };

  const start = async (): Promise<void> => {
    const proc = spawn(CLICKHOUSE_BINARY, ['--config-file', path.join(dir, 'config.xml'), '--pid-file', path.join(dir, 'pid')], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = proc;
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 20_000) stderr += d.toString();
    });
    const end = deadline(60_000);
    for (;;) {
      if (proc.exitCode !== null) {
        const log = fs.existsSync(path.join(dir, 'server.err.log')) ? fs.readFileSync(path.join(dir, 'server.err.log'), 'utf8').slice(-3000) : '';
        throw new Error(`clickhouse-server exited with ${proc.exitCode}: ${stderr.slice(-2000)}${log}`);
      }
      try {
        if ((await query('SELECT 1')).trim() === '1') return;
      } catch {
        // not listening yet
      }
      if (end.passed()) throw new Error(`clickhouse-server did not answer SELECT 1 within ${end.describe()}: ${stderr.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const stop = async (kill = false): Promise<void> => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(kill ? 'SIGKILL' : 'SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  const server: ClickHouseServer = {
    host,
    httpPort,
    tcpPort,
    httpUrl,
    storeUrl: `clickhouse://default@${host}:${httpPort}/default`,
    dir,
    query,
    stop,
    start,
    close: async () => {
      await stop(true);
      live.delete(server);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  live.add(server);
  await start();
  return server;
}

/** Whether the clickhouse-client binary is here (the naive pipe of the bench). */
export function clickhouseClientInstalled(): boolean {
  return spawnSync(CLICKHOUSE_CLIENT, ['--help'], { stdio: 'ignore' }).status !== null;
}
