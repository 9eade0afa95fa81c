import fs from 'node:fs';
import type { ConfigFile } from './config-schema';
import { lazyModule } from './lazy-module';
import { configFilePath } from './paths';
import { permissionWarning, writePrivateFile } from './private-file';

export type { ConfigFile, Profile } from './config-schema';

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
  // zod is loaded only when there is a file to check (its evaluation costs start-up time)
  const { ConfigFileSchema } = await import('./config-schema');
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

/**
 * The config file's warnings that need no parse (others can read it): for the console, which
 * takes the screen right after the CLI printed them, so they are shown there again.
 */
export function configFileWarnings(env: Record<string, string | undefined> = process.env): string[] {
  const perm = permissionWarning(configFilePath(env));
  return perm ? [perm] : [];
}

export async function saveConfigFile(path: string, config: ConfigFile): Promise<void> {
  writePrivateFile(path, (await loadYaml()).stringify(config));
}
