import type { Command } from './types';
import { tuiCommand } from './tui';
import { emulatorCommand } from './emulator';
import { getCommand } from './get';

/** Every command burrow knows; each lives in its own file. */
export const commands: Command[] = [tuiCommand, getCommand, emulatorCommand];
