import fs from 'node:fs';
import { z } from 'zod';
import { lazyModule } from './lazy-module';
import { configFilePath } from './paths';
import { permissionWarning, writePrivateFile } from './private-file';

export const ProfileSchema = z.object({
  apiKey: z.string().min(1).optional(),
  baseUrl: z.string().url().optional(),
  loggingUrl: z.string().url().optional(),
  loggingToken: z.string().min(1).optional(),
  databaseUrl: z.string().optional(),
  databaseToken: z.string().optional(),
  readOnly: z.boolean().optional(),
}).strict();

export const ConfigFileSchema = z.object({
  defaultProfile: z.string().optional(),
  refreshSeconds: z.number().min(1).max(3600).optional(),
  /** action id -> keys, overriding the default keymap */
  keys: z.record(z.string(), z.array(z.string()).min(1)).optional(),
  logBufferSize: z.number().int().min(1000).max(5_000_000).optional(),
  profiles: z.record(z.string(), ProfileSchema).optional(),
}).strict();

export type Profile = z.infer<typeof ProfileSchema>;
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

export interface LoadedConfig {
  path: string;
  exists: boolean;
  config: ConfigFile;
  warnings: string[];
}

export class ConfigError extends Error {}

const loadYaml = () => lazyModule(() => import('yaml'), 'parse');

/** Reads the config file; yaml is loaded only when there is a file (it costs start-up time). */
export async function loadConfigFile(env: Record<string, string | undefined> = process.env): Promise<LoadedConfig> {
  const path = configFilePath(env);
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, exists: false, config: {}, warnings: [] };
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let raw: unknown = {};
  try {
    if (text.trim() !== '') raw = (await loadYaml()).parse(text);
  } catch (error) {
    throw new ConfigError(`${path} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = ConfigFileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new ConfigError(`${path} has invalid settings: ${issues}`);
  }
  const warnings: string[] = [];
  const perm = permissionWarning(path);
  if (perm) warnings.push(perm);
  return { path, exists: true, config: parsed.data, warnings };
}

export async function saveConfigFile(path: string, config: ConfigFile): Promise<void> {
  writePrivateFile(path, (await loadYaml()).stringify(config));
}
