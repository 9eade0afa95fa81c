import fs from 'node:fs';
import path from 'node:path';
import type { RunningEmulator } from '../../src/emulator/server';
import { videoLibraries } from '../../src/emulator/management/video-libraries';

/** Every secret the emulator seeds: its access key, the database tokens, every video library key. */
export function seededSecrets(emu: RunningEmulator): Map<string, string> {
  const secrets = new Map<string, string>([
    [emu.info.accessKey, 'the account API key'],
    [emu.info.databaseToken, 'the full-access database token'],
    [emu.info.readOnlyDatabaseToken, 'the read-only database token'],
  ]);
  for (const lib of videoLibraries(emu.world)) {
    for (const field of ['ApiKey', 'ReadOnlyApiKey', 'ApiAccessKey'] as const) secrets.set(lib[field], `library ${lib.Id} ${field}`);
  }
  return secrets;
}

export interface Collected {
  where: string;
  text: string;
}

/** Each secret found unmasked in an output, as "what (in where)". */
export function leaks(outputs: Collected[], secrets: Map<string, string>): string[] {
  const found: string[] = [];
  for (const { where, text } of outputs) {
    for (const [secret, what] of secrets) if (text.includes(secret)) found.push(`${what} in ${where}`);
  }
  return found;
}

/** Every file under `dir`, with its text and mode. */
export function filesUnder(dir: string): { file: string; text: string; mode: number }[] {
  const out: { file: string; text: string; mode: number }[] = [];
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    const st = fs.statSync(full);
    if (st.isDirectory()) out.push(...filesUnder(full));
    else out.push({ file: full, text: fs.readFileSync(full, 'utf8'), mode: st.mode & 0o777 });
  }
  return out;
}
