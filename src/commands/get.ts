import { connectNonInteractive } from './connect';
import type { Resource } from './resource';
import { formatRecords } from './output';
import type { Command, CommandContext } from './types';
import { UsageError } from './types';
import { limitsResource } from './resources/limits';
import { shieldZonesResource } from './resources/shield-zones';
import { apiGuardianResource } from './resources/api-guardian';
import { appsResource } from './resources/apps';
import { regionSettingsResource } from './resources/region-settings';
import { regionsResource } from './resources/regions';
import { videoLibrariesResource } from './resources/video-libraries';
import { loadBalancersResource } from './resources/load-balancers';
import { loadBalancerResource } from './resources/load-balancer';
import { pullZonesResource } from './resources/pull-zones';

/** Every resource `burrow get` knows; each lives in its own file under ./resources. */
export const resources: Resource[] = [
  shieldZonesResource,
  apiGuardianResource,
  limitsResource,
  appsResource,
  regionSettingsResource,
  regionsResource,
  videoLibrariesResource,
  loadBalancersResource,
  loadBalancerResource,
  pullZonesResource,
];

export const getCommand: Command = {
  name: 'get',
  summary: 'print a resource as a table, JSON, CSV or NDJSON',
  get usage() {
    const width = Math.max(...resources.map((r) => (r.name + (r.arg ? ` ${r.arg}` : '')).length));
    return `burrow get RESOURCE [ID] [-o table|json|csv|ndjson] [--show-secrets] [--demo]

Resources:
${resources.map((r) => `  ${(r.name + (r.arg ? ` ${r.arg}` : '')).padEnd(width)}  ${r.summary}`).join('\n')}

Secrets (API keys, tokens) are masked unless --show-secrets is given.`;
  },
  options: {},
  outputs: ['table', 'json', 'csv', 'ndjson'],
  async run(ctx: CommandContext) {
    const [name, arg, ...rest] = ctx.args;
    const resource = resources.find((r) => r.name === name);
    if (!resource) {
      throw new UsageError(`${name ? `unknown resource "${name}"` : 'which resource?'}: one of ${resources.map((r) => r.name).join(', ')}`);
    }
    if (resource.arg && !arg) throw new UsageError(`burrow get ${resource.name} needs ${resource.arg}`);
    if (!resource.arg && arg !== undefined) throw new UsageError(`burrow get ${resource.name} takes no argument (got "${arg}")`);
    if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
    if (arg !== undefined) resource.parseArg?.(arg);
    const session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
    const abort = new AbortController();
    try {
      const records = await resource.fetch(session, arg, abort.signal);
      const format = ctx.settings.output ?? 'table';
      const tabular = format === 'table' || format === 'csv';
      ctx.io.stdout.write(
        formatRecords({
          format,
          records: tabular && resource.rows ? resource.rows(records) : records,
          columns: resource.columns,
          single: resource.single,
          showSecrets: ctx.settings.showSecrets,
          tty: ctx.io.stdout.isTTY,
        }),
      );
      return 0;
    } finally {
      await session.close();
    }
  },
};
