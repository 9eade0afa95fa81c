import { z } from 'zod';

export const ProfileSchema = z
  .object({
    apiKey: z.string().min(1).optional(),
    baseUrl: z.string().url().optional(),
    loggingUrl: z.string().url().optional(),
    loggingToken: z.string().min(1).optional(),
    databaseUrl: z.string().optional(),
    databaseToken: z.string().optional(),
    readOnly: z.boolean().optional(),
    /** The log store burrow ship writes into: clickhouse://[user@]host[:port][/database]. */
    logStore: z.string().min(1).optional(),
    /** Its password (a secret: masked as keys are). */
    logStorePassword: z.string().optional(),
  })
  .strict();

export const ConfigFileSchema = z
  .object({
    defaultProfile: z.string().optional(),
    refreshSeconds: z.number().min(1).max(3600).optional(),
    /** action id -> keys, overriding the default keymap */
    keys: z.record(z.string(), z.array(z.string()).min(1)).optional(),
    /** Show every time in UTC instead of the local time zone. */
    utc: z.boolean().optional(),
    logBufferSize: z.number().int().min(1000).max(5_000_000).optional(),
    profiles: z.record(z.string(), ProfileSchema).optional(),
  })
  .strict();

export type Profile = z.infer<typeof ProfileSchema>;
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
