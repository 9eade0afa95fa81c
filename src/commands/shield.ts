import type { Command } from './types';
import { UsageError } from './types';

export const shieldCommand: Command = {
  name: 'shield',
  summary: 'shield tools: check-spec FILE --zone ID',
  usage: 'burrow shield (not built yet)',
  options: {},
  async run() {
    throw new UsageError('burrow shield is not built yet');
  },
};
