import type { ConfigFile, Profile } from './config-file';
import { registerSecret } from './redact';

export const PLATFORM_BASE_URL = 'https://api.bunny.net';
export const PLATFORM_LOGGING_URL = 'https://logging.bunnycdn.com';
export const DEFAULT_REFRESH_SECONDS = 5;

export type OutputFormat = 'table' | 'json' | 'csv' | 'ndjson' | 'text';

/** What the command line said, before anything is resolved. */
export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  loggingUrl?: string;
  apiKey?: string;
  readOnly?: boolean;
  noColor?: boolean;
  demo?: boolean;
  output?: OutputFormat;
  debug?: boolean;
  debugSql?: boolean;
  showSecrets?: boolean;
  utc?: boolean;
}

export interface Settings {
  /** 'emulator' when burrow starts (or was told to use) the built-in emulator. */
  target: 'platform' | 'emulator';
  profileName: string | null;
  apiKey: string | null;
  apiKeySource: 'flag' | 'env' | 'profile' | 'emulator' | null;
  baseUrl: string;
  loggingUrl: string;
  loggingToken: string | null;
  databaseUrl: string | null;
  databaseToken: string | null;
  /** The log store (BURROW_LOG_STORE, else logStore: in the profile); --store-url wins over it. */
  logStore: string | null;
  /** Its password: BURROW_LOG_STORE_PASSWORD, else logStorePassword: in the profile (never a flag). */
  logStorePassword: string | null;
  readOnly: boolean;
  /** What made it read-only: "--read-only", or "profile prod" (its readOnly: true). */
  readOnlySource: string | null;
  color: boolean;
  output: OutputFormat | null;
  refreshSeconds: number;
  keys: Record<string, string[]>;
  logBufferSize: number;
  debug: boolean;
  /** --debug-sql: the debug log shows SQL literals and arguments as sent. */
  debugSql: boolean;
  showSecrets: boolean;
  /** Times shown in UTC instead of the local time zone (--utc, BURROW_UTC=1, utc: true in the file). */
  utc: boolean;
  warnings: string[];
}

export class SettingsError extends Error {}

type Env = Record<string, string | undefined>;

function nonEmpty(v: string | undefined | null): string | null {
  return v === undefined || v === null || v.trim() === '' ? null : v.trim();
}

/**
 * Precedence, highest first: command-line flags, environment, the chosen profile, defaults.
 * The profile is --profile, else BURROW_PROFILE, else the file's defaultProfile.
 * With no API key anywhere (or --demo) the target is the emulator.
 */
export function resolveSettings(flags: GlobalFlags, env: Env, file: ConfigFile): Settings {
  const warnings: string[] = [];
  const profileName = flags.profile ?? nonEmpty(env.BURROW_PROFILE) ?? file.defaultProfile ?? null;
  let profile: Profile = {};
  let usedProfile: string | null = null;
  if (profileName !== null) {
    const found = file.profiles?.[profileName];
    if (!found) {
      const names = Object.keys(file.profiles ?? {});
      if (flags.profile !== undefined || env.BURROW_PROFILE) {
        throw new SettingsError(
          `no profile named "${profileName}" in the config file` + (names.length ? ` (profiles: ${names.join(', ')})` : ' (it has no profiles)'),
        );
      }
      warnings.push(`defaultProfile "${profileName}" is not defined in the config file`);
    } else {
      profile = found;
      usedProfile = profileName;
    }
  }

  let apiKey: string | null = null;
  let apiKeySource: Settings['apiKeySource'] = null;
  if (nonEmpty(flags.apiKey)) {
    apiKey = nonEmpty(flags.apiKey);
    apiKeySource = 'flag';
    warnings.push('an API key given on the command line is visible to other users of this machine (ps, shell history); prefer BURROW_API_KEY or a profile');
  } else if (nonEmpty(env.BURROW_API_KEY)) {
    apiKey = nonEmpty(env.BURROW_API_KEY);
    apiKeySource = 'env';
  } else if (nonEmpty(profile.apiKey)) {
    apiKey = nonEmpty(profile.apiKey);
    apiKeySource = 'profile';
  }

  const target: Settings['target'] = flags.demo || apiKey === null ? 'emulator' : 'platform';
  const databaseUrl = nonEmpty(env.SERVICE_DATABASE_URL) ?? nonEmpty(env.BUNNY_DATABASE_URL) ?? nonEmpty(profile.databaseUrl);
  const databaseToken = nonEmpty(env.SERVICE_DATABASE_AUTH_TOKEN) ?? nonEmpty(env.BUNNY_DATABASE_AUTH_TOKEN) ?? nonEmpty(profile.databaseToken);
  const loggingToken = nonEmpty(env.BURROW_LOGGING_TOKEN) ?? nonEmpty(profile.loggingToken);
  const logStore = nonEmpty(env.BURROW_LOG_STORE) ?? nonEmpty(profile.logStore);
  const logStorePassword = nonEmpty(env.BURROW_LOG_STORE_PASSWORD) ?? nonEmpty(profile.logStorePassword);
  for (const s of [apiKey, databaseToken, loggingToken, logStorePassword]) registerSecret(s);

  const baseUrl = stripSlash(flags.baseUrl ?? nonEmpty(env.BURROW_BASE_URL) ?? profile.baseUrl ?? PLATFORM_BASE_URL);
  const loggingUrl = stripSlash(flags.loggingUrl ?? nonEmpty(env.BURROW_LOGGING_URL) ?? profile.loggingUrl ?? PLATFORM_LOGGING_URL);
  for (const [name, url] of [
    ['--base-url', baseUrl],
    ['--logging-url', loggingUrl],
  ] as const) {
    if (!/^https?:\/\/[^/\s]+/i.test(url)) throw new SettingsError(`${name} must be an http(s) URL, got "${url}"`);
  }

  return {
    target,
    profileName: usedProfile,
    apiKey,
    apiKeySource,
    baseUrl,
    loggingUrl,
    loggingToken,
    databaseUrl,
    databaseToken,
    logStore,
    logStorePassword,
    readOnly: Boolean(flags.readOnly || profile.readOnly),
    readOnlySource: flags.readOnly ? '--read-only' : profile.readOnly ? `profile ${usedProfile ?? '?'}` : null,
    color: !(flags.noColor || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')),
    output: flags.output ?? null,
    refreshSeconds: file.refreshSeconds ?? DEFAULT_REFRESH_SECONDS,
    keys: file.keys ?? {},
    logBufferSize: file.logBufferSize ?? 2_000_000,
    debug: Boolean(flags.debug || flags.debugSql),
    debugSql: Boolean(flags.debugSql),
    showSecrets: Boolean(flags.showSecrets),
    utc: flags.utc ?? envBoolean(env.BURROW_UTC, 'BURROW_UTC') ?? file.utc ?? false,
    warnings,
  };
}

/** 1/true/yes or 0/false/no; unset or empty: undefined (the next source decides). */
function envBoolean(v: string | undefined, name: string): boolean | undefined {
  const t = v?.trim().toLowerCase();
  if (t === undefined || t === '') return undefined;
  if (['1', 'true', 'yes', 'on'].includes(t)) return true;
  if (['0', 'false', 'no', 'off'].includes(t)) return false;
  throw new SettingsError(`${name} must be 1 or 0 (true or false), got "${v}"`);
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
