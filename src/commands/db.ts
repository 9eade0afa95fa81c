import type { Command } from './types';
import { UsageError } from './types';

export const dbCommand: Command = {
  name: 'db',
  summary: 'database access tokens: create, invalidate',
  usage: 'burrow db (not built yet)',
  options: {},
  async run() {
    throw new UsageError('burrow db is not built yet');
  },
};
