import { connectNonInteractive } from '../runtime/connect';
import type { ListQuery, Resource } from './resource';
import { formatRecords, type Column as OutputColumn } from './output';
import { cellText, rawValue, type Column } from '../text/table-model';
import { type Command, type CommandContext, UsageError } from './types';
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
import { SCREEN_ALIASES } from '../renderers/screen-names';
import { didYouMean } from '../text/did-you-mean';

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

/** Every name a resource answers to: its own, then its screen's id and aliases (`videos`, `vl`). */
function resourceNames(r: Resource): string[] {
  return r.screen ? [r.name, r.screen, ...SCREEN_ALIASES[r.screen]] : [r.name];
}

/** The resource a name means, or a usage error that names the closest one. */
export function findResource(name: string | undefined): Resource {
  const found = name === undefined ? undefined : (resources.find((r) => r.name === name) ?? resources.find((r) => resourceNames(r).includes(name)));
  if (found) return found;
  if (name === undefined) throw new UsageError(`which resource?: one of ${resources.map((r) => r.name).join(', ')}`);
  const guess = didYouMean(name, resources.flatMap(resourceNames));
  const meant = guess === null ? undefined : resources.find((r) => resourceNames(r).includes(guess));
  throw new UsageError(`unknown resource "${name}"${meant ? ` (did you mean ${meant.name}?)` : ''}: one of ${resources.map((r) => r.name).join(', ')}`);
}

const whole = (flag: string, value: string, min: number, max: number): number => {
  const n = /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${value.slice(0, 40)}")`);
  return n;
};

/** --search/--page/--per-page, checked before any request; refused for resources without them. */
function listQuery(ctx: CommandContext, resource: Resource): ListQuery {
  const v = ctx.values;
  const given = (['search', 'page', 'per-page'] as const).filter((f) => v[f] !== undefined);
  if (given.length && !resource.searchable) {
    throw new UsageError(
      `--${given[0]} is not available for ${resource.name}: only ${resources
        .filter((r) => r.searchable)
        .map((r) => r.name)
        .join(', ')} has server-side search and paging`,
    );
  }
  const search = typeof v.search === 'string' ? v.search : null;
  if (search !== null && search.length > 200) throw new UsageError('--search must be at most 200 characters');
  return {
    search,
    page: typeof v.page === 'string' ? whole('--page', v.page, 1, 2_147_483_647) : null,
    perPage: typeof v['per-page'] === 'string' ? whole('--per-page', v['per-page'], 5, 1000) : null,
  };
}

export const getCommand: Command = {
  name: 'get',
  summary: 'print a resource as a table, JSON, CSV or NDJSON',
  get usage() {
    const width = Math.max(...resources.map((r) => (r.name + (r.arg ? ` ${r.arg}` : '')).length));
    return `burrow get RESOURCE [ID] [-o table|json|csv|ndjson] [--show-secrets] [--demo]
burrow get video-libraries [--search TEXT] [--page N] [--per-page N]

Resources:
${resources.map((r) => `  ${(r.name + (r.arg ? ` ${r.arg}` : '')).padEnd(width)}  ${r.summary}`).join('\n')}

A resource is also named as the console's screen that lists it: ${resources
      .filter((r) => r.screen)
      .map((r) => `${resourceNames(r).slice(1).join(', ')} (${r.name})`)
      .join('; ')}.

Secrets (API keys, tokens) are masked unless --show-secrets is given. --search filters by name on
the server; --page (from 1) and --per-page (5 to 1000, default 100 with --page) print one page,
else every page is read.`;
  },
  options: { search: { type: 'string' }, page: { type: 'string' }, 'per-page': { type: 'string' } },
  outputs: ['table', 'json', 'csv', 'ndjson'],
  async run(ctx: CommandContext) {
    const [name, arg, ...rest] = ctx.args;
    const resource = findResource(name);
    if (resource.arg && !arg) throw new UsageError(`burrow get ${resource.name} needs ${resource.arg}`);
    if (!resource.arg && arg !== undefined) throw new UsageError(`burrow get ${resource.name} takes no argument (got "${arg}")`);
    if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
    if (arg !== undefined) resource.parseArg?.(arg);
    const query = listQuery(ctx, resource);
    const platform = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
    const abort = new AbortController();
    try {
      const records = await resource.fetch(platform, arg, abort.signal, query);
      const format = ctx.settings.output ?? 'table';
      const tabular = format === 'table' || format === 'csv';
      ctx.io.stdout.write(
        formatRecords({
          format,
          records: tabular && resource.rows ? resource.rows(records) : records,
          columns: resource.columns.map(outputColumn),
          single: resource.single,
          showSecrets: ctx.settings.showSecrets,
        }),
      );
      return 0;
    } finally {
      await platform.close();
    }
  },
};

/** A renderer column as plain output: a table shows the screen's cell text (without colour), CSV the raw value. */
function outputColumn<T>(column: Column<T>): OutputColumn<T> {
  return { header: column.header, value: (row) => cellText(column.cell(row)), raw: (row) => rawValue(column, row) };
}
