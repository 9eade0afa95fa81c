import type { Command } from './types';
import { tuiCommand } from './tui';
import { getCommand } from './get';
import { logsCommand } from './logs';
import { sqlCommand } from './sql';
import { dbCommand } from './db';
import { shieldCommand } from './shield';
import { emulatorCommand } from './emulator';
import { containersCommand } from './containers';
import { completionCommand } from './completion';

/** Every command burrow knows; each lives in its own file. */
export const commands: Command[] = [tuiCommand, getCommand, logsCommand, sqlCommand, dbCommand, shieldCommand, containersCommand, emulatorCommand, completionCommand];
