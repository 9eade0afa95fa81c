import os from 'node:os';
import path from 'node:path';

type Env = Record<string, string | undefined>;

/** $XDG_CONFIG_HOME/burrow, else ~/.config/burrow. */
export function configDir(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME ?? os.homedir(), '.config');
  return path.join(base, 'burrow');
}

/** $XDG_STATE_HOME/burrow, else ~/.local/state/burrow: history files live here. */
export function stateDir(env: Env = process.env): string {
  const base = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(env.HOME ?? os.homedir(), '.local', 'state');
  return path.join(base, 'burrow');
}

export function configFilePath(env: Env = process.env): string {
  return env.BURROW_CONFIG ?? path.join(configDir(env), 'config.yaml');
}
