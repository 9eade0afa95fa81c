/**
 * A colour per zone in merged streams (as stern gives each pod one): the n-th zone of the list
 * gets the n-th colour, so `logs A B` and the console's merged view agree. Colour names as Ink
 * knows them; ZONE_SGR is the terminal's code of each. Never used with NO_COLOR / --no-color.
 */
export const ZONE_COLOURS = ['cyan', 'magenta', 'yellow', 'green', 'blue', 'red'] as const;
export type ZoneColour = (typeof ZONE_COLOURS)[number];

export const ZONE_SGR: Record<ZoneColour, number> = { cyan: 36, magenta: 35, yellow: 33, green: 32, blue: 34, red: 31 };

/** The colour of zone `id` in a merged stream of `zones`; null when it is not one of them. */
export function zoneColour(zones: readonly number[], id: number): ZoneColour | null {
  const i = zones.indexOf(id);
  return i < 0 ? null : ZONE_COLOURS[i % ZONE_COLOURS.length]!;
}

/** Text in a zone's colour as terminal codes (foreground, then back to the default). */
export function paintZone(text: string, colour: ZoneColour | null): string {
  return colour === null ? text : `\x1b[${ZONE_SGR[colour]}m${text}\x1b[39m`;
}
