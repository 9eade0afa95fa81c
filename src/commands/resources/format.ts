import { UsageError } from '../types';

/** 1536 -> "1.5 KiB"; null stays empty. */
export function humanBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}

/** "2025-03-04T05:06:07Z" -> "2025-03-04"; anything else as it is. */
export function day(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '';
}

export const yesNo = (v: boolean | null | undefined): string => (v === null || v === undefined ? '' : v ? 'yes' : 'no');

/** Parses a positive whole-number id argument, or says what is allowed. */
export function parseIdArg(what: string, arg: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = /^\d{1,16}$/.test(arg.trim()) ? Number(arg.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new UsageError(`${what} must be a positive whole number${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''} (got "${arg.slice(0, 40)}")`);
  }
  return n;
}

/** A key/value row for single-record tables. */
export interface FieldRow {
  field: string;
  value: string;
}
