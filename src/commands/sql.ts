import type { Command } from './types';
import { UsageError } from './types';

export const sqlCommand: Command = {
  name: 'sql',
  summary: 'run SQL on the hosted database (REPL when interactive)',
  usage: 'burrow sql (not built yet)',
  options: {},
  async run() {
    throw new UsageError('burrow sql is not built yet');
  },
};
