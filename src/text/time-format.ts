/**
 * Every time burrow shows a person goes through here, in one zone for the whole run: the local
 * time zone (the process's TZ) by default, UTC with `--utc`, `utc: true` in the config file or
 * BURROW_UTC=1. Machine outputs (JSON, NDJSON, exports) keep ISO 8601 UTC and do not use this.
 */

export type DisplayZone = 'local' | 'utc';

let current: DisplayZone = 'local';

/** Set once at start-up from the settings. */
export function setDisplayZone(zone: DisplayZone): void {
  current = zone;
}

export function displayZone(): DisplayZone {
  return current;
}

/** The calendar fields of an instant in a zone. */
export interface TimeFields {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

export function fieldsOf(ms: number, zone: DisplayZone = current): TimeFields {
  const d = new Date(ms);
  return zone === 'utc'
    ? {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth() + 1,
        day: d.getUTCDate(),
        hour: d.getUTCHours(),
        minute: d.getUTCMinutes(),
        second: d.getUTCSeconds(),
        ms: d.getUTCMilliseconds(),
      }
    : {
        year: d.getFullYear(),
        month: d.getMonth() + 1,
        day: d.getDate(),
        hour: d.getHours(),
        minute: d.getMinutes(),
        second: d.getSeconds(),
        ms: d.getMilliseconds(),
      };
}

/**
 * The instant of calendar fields in a zone; NaN when they name no instant there (a local time
 * skipped by a daylight-saving change, or fields out of range). A local time that happens twice
 * (clocks moved back) is the earlier of the two.
 */
export function instantOf(f: TimeFields, zone: DisplayZone = current): number {
  const t =
    zone === 'utc'
      ? Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms)
      : new Date(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms).getTime();
  if (Number.isNaN(t)) return Number.NaN;
  const back = fieldsOf(t, zone);
  const same =
    back.year === f.year && back.month === f.month && back.day === f.day && back.hour === f.hour && back.minute === f.minute && back.second === f.second;
  if (!same) return Number.NaN;
  if (zone === 'local') {
    // of two instants with these fields, the earlier (an hour before, when the clocks went back)
    const earlier = t - 3_600_000;
    const e = fieldsOf(earlier, zone);
    if (e.hour === f.hour && e.minute === f.minute && e.day === f.day && e.second === f.second) return earlier;
  }
  return t;
}

const p2 = (n: number) => String(n).padStart(2, '0');
const p3 = (n: number) => String(n).padStart(3, '0');

/** "+01:00", "-05:00", "Z" for UTC (and a local zone at UTC then): the offset of the zone at that instant. */
export function offsetText(ms: number, zone: DisplayZone = current): string {
  if (zone === 'utc') return 'Z';
  const minutes = -new Date(ms).getTimezoneOffset();
  if (minutes === 0) return 'Z';
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${p2(Math.floor(a / 60))}:${p2(a % 60)}`;
}

/** "UTC", or the local zone as an offset from it ("UTC-05:00") at that instant. */
export function zoneLabel(ms: number, zone: DisplayZone = current): string {
  if (zone === 'utc') return 'UTC';
  const o = offsetText(ms, zone);
  return o === 'Z' ? 'UTC' : `UTC${o}`;
}

export type TimeStyle =
  /** 14:05 */
  | 'minute'
  /** 14:05:30 */
  | 'clock'
  /** 14:05:30.123 */
  | 'clockMs'
  /** 2026-11-24 */
  | 'day'
  /** 2026-11-24 14:05 */
  | 'dateMinute'
  /** 2026-11-24 14:05:30 */
  | 'dateTime'
  /** 2026-11-24T14:05:30.123Z, or 2026-11-24T09:05:30.123-05:00 in local time */
  | 'iso';

/** An instant as a person reads it, in the display zone (or the one given). */
export function formatTime(ms: number, style: TimeStyle, zone: DisplayZone = current): string {
  if (!Number.isFinite(ms)) return '';
  const f = fieldsOf(ms, zone);
  const day = `${String(f.year).padStart(4, '0')}-${p2(f.month)}-${p2(f.day)}`;
  const minute = `${p2(f.hour)}:${p2(f.minute)}`;
  const clock = `${minute}:${p2(f.second)}`;
  switch (style) {
    case 'minute':
      return minute;
    case 'clock':
      return clock;
    case 'clockMs':
      return `${clock}.${p3(f.ms)}`;
    case 'day':
      return day;
    case 'dateMinute':
      return `${day} ${minute}`;
    case 'dateTime':
      return `${day} ${clock}`;
    case 'iso':
      return `${day}T${clock}.${p3(f.ms)}${offsetText(ms, zone)}`;
  }
}

/** Cells the 'iso' style takes at most: 24 in UTC ("...Z", also a local zone that is UTC all year), 29 with a local offset. */
export function isoWidth(zone: DisplayZone = current): number {
  if (zone === 'utc') return 24;
  const year = new Date().getFullYear();
  const utcAllYear = new Date(year, 0, 1).getTimezoneOffset() === 0 && new Date(year, 6, 1).getTimezoneOffset() === 0;
  return utcAllYear ? 24 : 29;
}

/**
 * A date-time text from outside (an API field) in the display zone: ISO texts without a zone are
 * UTC (the core API sends them so); text that is not a date comes back as it is.
 */
export function formatDateText(text: string | null | undefined, style: TimeStyle, zone: DisplayZone = current): string {
  const t = parseApiDate(text);
  return Number.isNaN(t) ? (text ?? '') : formatTime(t, style, zone);
}

/** Epoch ms of an API date-time text (no zone: UTC); NaN when it is not one. */
export function parseApiDate(text: string | null | undefined): number {
  if (!text) return Number.NaN;
  const withZone = /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`;
  return Date.parse(withZone);
}
