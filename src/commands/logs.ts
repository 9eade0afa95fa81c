import type { Command } from './types';
import { UsageError } from './types';

export const logsCommand: Command = {
  name: 'logs',
  summary: 'follow or fetch CDN logs of a pull zone',
  usage: 'burrow logs (not built yet)',
  options: {},
  async run() {
    throw new UsageError('burrow logs is not built yet');
  },
};
