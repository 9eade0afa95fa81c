import { displayZone, formatTime, parseApiDate } from '../text/time-format';

/** Formatting shared by every resource renderer: bytes, dates, counts, yes/no, enum names. */

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** 0 -> "0 B", 1536 -> "1.5 KiB", 5.2e9 -> "4.8 GiB"; null/undefined/negative/NaN -> "". */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${Math.round(n)} B`;
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  const text = v >= 100 ? v.toFixed(0) : v.toFixed(1);
  // 1023.96 KiB rounds to "1024 KiB": say "1.0 MiB" instead.
  if (text === '1024' && i < UNITS.length - 1) return `1.0 ${UNITS[i + 1]}`;
  return `${text} ${UNITS[i]}`;
}

function parse(iso: string | null | undefined): Date | null {
  // The core API sends dates without a zone ("2024-03-05T14:22:01"); they are UTC.
  const t = parseApiDate(iso);
  return Number.isNaN(t) ? null : new Date(t);
}

/** An API date as full ISO UTC ("2024-03-05T14:22:01.000Z") for machine output; null when absent, other text as it is. */
export function isoUtc(text: string | null | undefined): string | null {
  if (!text) return null;
  const d = parse(text);
  return d ? d.toISOString() : text;
}

/** "2024-03-05", in the display zone (local time, or UTC with --utc); text that is not a date comes back as it is. */
export function formatDay(iso: string | null | undefined): string {
  const d = parse(iso);
  return d ? formatTime(d.getTime(), 'day') : (iso ?? '');
}

/** "2024-03-05 14:22" in local time, "2024-03-05 14:22 UTC" with --utc; text that is not a date comes back as it is. */
export function formatDateTime(iso: string | null | undefined): string {
  const d = parse(iso);
  if (!d) return iso ?? '';
  return `${formatTime(d.getTime(), 'dateMinute')}${displayZone() === 'utc' ? ' UTC' : ''}`;
}

/** "3 days ago", "in 5 months": how far a date is from `now`. */
export function formatRelative(iso: string | null | undefined, now: number): string {
  const d = parse(iso);
  if (!d) return '';
  const diff = now - d.getTime();
  const future = diff < 0;
  const s = Math.abs(diff) / 1000;
  const [n, unit] =
    s < 60
      ? [Math.floor(s), 'second']
      : s < 3600
        ? [Math.floor(s / 60), 'minute']
        : s < 86_400
          ? [Math.floor(s / 3600), 'hour']
          : s < 86_400 * 60
            ? [Math.floor(s / 86_400), 'day']
            : s < 86_400 * 730
              ? [Math.floor(s / (86_400 * 30)), 'month']
              : [Math.floor(s / (86_400 * 365)), 'year'];
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return future ? `in ${text}` : `${text} ago`;
}

/** 12345 -> "12,345". */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '';
  return Math.round(n).toLocaleString('en-US');
}

/** true -> "yes", false -> "no", absent -> "". */
export function yesNo(v: boolean | null | undefined): string {
  return v === null || v === undefined ? '' : v ? 'yes' : 'no';
}

/** Name of an integer enum value: "RoundRobin", "unknown (7)", or "" when absent. */
export function enumName(names: Readonly<Record<number, string>>, value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return names[value] ?? `unknown (${value})`;
}
