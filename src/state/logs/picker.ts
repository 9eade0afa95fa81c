import type { Api } from '../../api/index';
import type { PullZone } from '../../api/pull-zones';
import type { PickerZone } from './types';

/** The pull zone each picker row was made from (its raw JSON is kept beside it, for `d`). */
const sourceOf = new WeakMap<PickerZone, PullZone>();

/** The parsed pull zone a picker row came from, or undefined for a row made otherwise. */
export function pickerZoneSource(zone: PickerZone): PullZone | undefined {
  return sourceOf.get(zone);
}

/** The pull zones the logs picker offers: those with logging on (and how many have it off). */
export async function loadPickerZones(api: Api, signal: AbortSignal): Promise<{ zones: PickerZone[]; withoutLogging: number }> {
  const all = await api.pullZones.list(signal);
  const zones = all
    .filter((z) => z.EnableLogging === true)
    .map((z) => {
      const row: PickerZone = { id: z.Id, name: z.Name ?? '', hostname: z.Hostnames.find((h) => !h.IsSystemHostname)?.Value ?? z.Hostnames[0]?.Value ?? '' };
      sourceOf.set(row, z);
      return row;
    });
  return { zones, withoutLogging: all.length - zones.length };
}

/** The picked zones with `id` added, or removed when it was picked (order of picking kept). */
export function togglePicked(picked: readonly number[], id: number): number[] {
  return picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id];
}

/** What enter opens: the picked zones, or the zone under the cursor when none is picked. */
export function zonesToOpen(picked: readonly number[], current: number | null): number[] {
  if (picked.length) return [...picked];
  return current === null ? [] : [current];
}
