import { fieldsOf, instantOf, zoneLabel, type DisplayZone } from './time-format';

/**
 * A time as a person types it (the logs screen's `@` and the filter form's from/to):
 *
 *   14:05  14:05:30  14:05:30.250      the latest such time of day that is not after `now`
 *   2026-11-24  2026-11-24 14:05       a date (midnight), a date and time
 *   2026-11-24T14:05:30Z  ...+01:00    with a zone or offset: that instant, whatever the display zone
 *   -10m  -2h  -90s  -1d  -1h30m       that long before `now`
 *
 * Without a zone, a time is in the display zone (local or UTC). Calendar fields are checked
 * (no 25:00, no 02-30), and a local time a daylight-saving change skips is refused.
 */

export const TIME_FORMS_HINT = '14:05 · 14:05:30 · 2026-11-24 14:05 · 2026-11-24T14:05:30Z · -10m / -2h / -90s';

export type TimeInput = { ok: true; ms: number } | { ok: false; message: string };

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const RELATIVE = /^-\s*((?:\d+\s*[smhd]\s*)+)$/i;
const TIME_OF_DAY = /^(\d{1,2}):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?$/;
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d{1,2}):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?)?\s*(Z|[+-]\d\d:?\d\d)?$/i;

const bad = (text: string, why: string): TimeInput => ({ ok: false, message: `"${text}" ${why}: use ${TIME_FORMS_HINT}` });

export function parseTimeInput(raw: string, now: number, zone: DisplayZone): TimeInput {
  const text = raw.trim();
  if (text === '') return { ok: false, message: `type a time: ${TIME_FORMS_HINT}` };

  const rel = RELATIVE.exec(text);
  if (rel) {
    let ms = 0;
    for (const m of rel[1]!.matchAll(/(\d+)\s*([smhd])/gi)) ms += Number(m[1]) * UNIT_MS[m[2]!.toLowerCase()]!;
    if (ms === 0) return bad(text, 'is no time before now');
    return { ok: true, ms: now - ms };
  }

  const tod = TIME_OF_DAY.exec(text);
  if (tod) {
    const [hour, minute, second, ms] = [Number(tod[1]), Number(tod[2]), Number(tod[3] ?? 0), fraction(tod[4])];
    const problem = clockProblem(hour, minute, second);
    if (problem) return bad(text, problem);
    // today's, or yesterday's when today's is still to come (logs are about the past)
    const today = fieldsOf(now, zone);
    for (let back = 0; back <= 2; back++) {
      const day = dayBefore(today, back);
      const t = instantOf({ ...day, hour, minute, second, ms }, zone);
      if (!Number.isNaN(t) && t <= now) return { ok: true, ms: t };
    }
    return bad(text, `is not a time of the last two days in ${zoneLabel(now, zone)}`);
  }

  const dt = DATE_TIME.exec(text);
  if (dt) {
    const [year, month, day] = [Number(dt[1]), Number(dt[2]), Number(dt[3])];
    const [hour, minute, second, ms] = [Number(dt[4] ?? 0), Number(dt[5] ?? 0), Number(dt[6] ?? 0), fraction(dt[7])];
    if (month < 1 || month > 12) return bad(text, `has no month ${month}`);
    if (day < 1 || day > daysIn(year, month)) return bad(text, `has no day ${day} in that month`);
    const problem = clockProblem(hour, minute, second);
    if (problem) return bad(text, problem);
    const offset = dt[8];
    if (offset) {
      const sign = offset[0] === '-' ? -1 : 1;
      const digits = offset.replace(/[^\d]/g, '');
      const minutes = offset.toUpperCase() === 'Z' ? 0 : sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
      if (Math.abs(minutes) > 18 * 60) return bad(text, 'has an offset beyond ±18:00');
      return { ok: true, ms: Date.UTC(year, month - 1, day, hour, minute, second, ms) - minutes * 60_000 };
    }
    const t = instantOf({ year, month, day, hour, minute, second, ms }, zone);
    if (Number.isNaN(t))
      return {
        ok: false,
        message: `${text} does not exist in ${zoneLabel(Date.UTC(year, month - 1, day), zone)}: the clocks skipped it (daylight saving); add an hour, or give a UTC time with Z`,
      };
    return { ok: true, ms: t };
  }
  return bad(text, 'is not a time');
}

function fraction(digits: string | undefined): number {
  return digits === undefined ? 0 : Math.round(Number(`0.${digits}`) * 1000);
}

function clockProblem(hour: number, minute: number, second: number): string | null {
  if (hour > 23) return `has no hour ${hour} (0-23)`;
  if (minute > 59) return `has no minute ${minute} (0-59)`;
  if (second > 59) return `has no second ${second} (0-59)`;
  return null;
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The calendar day `n` days before the fields' day (calendar arithmetic, no 24-hour steps). */
function dayBefore(f: { year: number; month: number; day: number }, n: number): { year: number; month: number; day: number } {
  const d = new Date(Date.UTC(f.year, f.month - 1, f.day - n));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
