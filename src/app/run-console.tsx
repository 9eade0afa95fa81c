import type { Settings } from '../config/settings';
import type { Io } from '../commands/types';

/** Placeholder until the app shell lands. */
export async function runConsole(settings: Settings, io: Io): Promise<number> {
  void settings;
  io.stderr.write('the console is not built yet\n');
  return 1;
}
