import type { Api } from '../../api/index';

/**
 * Names of the zones followed, for the title, the zone strip and the detail view. One list of the
 * pull zones (not a request per zone); a failure leaves the ids alone, as the management API is
 * not needed to follow logs.
 */
export async function loadZoneNames(api: Api, zones: readonly number[], signal: AbortSignal): Promise<Record<number, string>> {
  try {
    const all = await api.pullZones.list(signal);
    const names: Record<number, string> = {};
    for (const z of all) if (zones.includes(z.Id) && z.Name) names[z.Id] = z.Name;
    return names;
  } catch {
    return {};
  }
}
