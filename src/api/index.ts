import { DatabaseUsageApi } from './database-usage';
import { HttpClient } from './http';
import { ContainersApi } from './containers';
import { ShieldApi } from './shield';
import { VideoLibrariesApi } from './video-libraries';
import { LoadBalancersApi } from './load-balancers';
import { PullZonesApi } from './pull-zones';
import { DatabaseManagementApi } from './database-management';
import { LogsApi } from './logs/index';
import type { PageBodyReader } from './logs/page';

/** Where the platform is and how to authenticate: all a client needs. */
export interface Connection {
  baseUrl: string;
  loggingUrl: string;
  apiKey: string;
  /** Bearer JWT for the logging API; the API key is used when absent. */
  loggingToken?: string | null;
  /** One redacted line per request (--debug). */
  debug?: (line: string) => void;
}

/** The one shared API module: every screen's store and every command goes through it. */
export interface Api {
  connection: Connection;
  management: HttpClient;
  logging: HttpClient;
  containers: ContainersApi;
  shield: ShieldApi;
  videoLibraries: VideoLibrariesApi;
  loadBalancers: LoadBalancersApi;
  pullZones: PullZonesApi;
  databases: DatabaseManagementApi;
  databaseUsage: DatabaseUsageApi;
  logs: LogsApi;
  close(): Promise<void>;
}

/** Parts of the clients given from above the api layer. */
export interface ApiParts {
  /** Reads the logging API's page bodies: the log engine's LogPageReader (see LogsApiOptions.pageReader). */
  pageReader?: PageBodyReader;
}

export function createApi(connection: Connection, parts: ApiParts = {}): Api {
  const management = new HttpClient({
    baseUrl: connection.baseUrl,
    auth: () => ({ AccessKey: connection.apiKey }),
    debug: connection.debug,
  });
  const logging = new HttpClient({
    baseUrl: connection.loggingUrl,
    auth: (): Record<string, string> => (connection.loggingToken ? { Authorization: `Bearer ${connection.loggingToken}` } : { AccessKey: connection.apiKey }),
    debug: connection.debug,
    // the follow engine does its own paced retries inside the per-zone budget
    maxRetries: 0,
  });
  return {
    connection,
    management,
    logging,
    containers: new ContainersApi(management),
    shield: new ShieldApi(management),
    videoLibraries: new VideoLibrariesApi(management),
    loadBalancers: new LoadBalancersApi(management),
    pullZones: new PullZonesApi(management),
    databases: new DatabaseManagementApi(management),
    databaseUsage: new DatabaseUsageApi(management),
    logs: new LogsApi(logging, { pageReader: parts.pageReader }),
    async close() {
      await Promise.all([management.close(), logging.close()]);
    },
  };
}
