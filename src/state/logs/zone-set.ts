/**
 * The zones of a logs screen visit: `:logs 1058`, `:logs 1058 1199` or `:logs 1058,1199`. The
 * screen's argument is the canonical text (ids separated by one space), so the same zones are
 * the same visit.
 */

/** At most this many zones at once: each polls on its own budget, and the zone strip must fit. */
export const MAX_ZONES = 8;

/** The ids in the order given, each once; or a message saying what is wrong. */
export function parseZoneList(text: string): number[] | { error: string } {
  const parts = text.split(/[\s,]+/).filter((p) => p !== '');
  if (parts.length === 0) return { error: 'give a pull zone id, e.g. 1058 (several: 1058 1199)' };
  const ids: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,15}$/.test(p)) return { error: `pull zone ids are numbers, got "${p}" (several: 1058 1199)` };
    const id = Number(p);
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length > MAX_ZONES) return { error: `at most ${MAX_ZONES} zones at once, got ${ids.length}` };
  return ids;
}

/** The screen argument for these zones. */
export function zoneListArg(ids: readonly number[]): string {
  return ids.join(' ');
}
