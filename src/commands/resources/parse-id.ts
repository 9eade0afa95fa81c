import { UsageError } from '../types';

/** Parses a positive whole-number id argument, or says what is allowed. */
export function parseIdArg(what: string, arg: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = /^\d{1,16}$/.test(arg.trim()) ? Number(arg.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new UsageError(`${what} must be a positive whole number${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''} (got "${arg.slice(0, 40)}")`);
  }
  return n;
}
