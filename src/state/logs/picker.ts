import type { Api } from '../../api/index';
import type { PickerZone } from './types';

/** The pull zones the logs picker offers: those with logging on (and how many have it off). */
export async function loadPickerZones(api: Api, signal: AbortSignal): Promise<{ zones: PickerZone[]; withoutLogging: number }> {
  const all = await api.pullZones.list(signal);
  const zones = all
    .filter((z) => z.EnableLogging === true)
    .map((z) => ({ id: z.Id, name: z.Name ?? '', hostname: z.Hostnames.find((h) => !h.IsSystemHostname)?.Value ?? z.Hostnames[0]?.Value ?? '' }));
  return { zones, withoutLogging: all.length - zones.length };
}
