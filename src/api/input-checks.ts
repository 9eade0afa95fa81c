import { ApiError } from './errors';

export const INT32_MAX = 2147483647;

/** Refuses a bad value before any request is sent; the message says what is allowed. */
export function invalidInput(message: string): ApiError {
  return new ApiError({ kind: 'invalid-input', message });
}

const shown = (v: unknown) => (typeof v === 'string' ? `"${v.slice(0, 40)}"` : String(v));

/** A whole number in [min, max]; `what` names it in the message ("page", "perPage"...). */
export function checkWhole(what: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidInput(`${what} must be a whole number from ${min} to ${max} (got ${shown(value)})`);
  }
  return value;
}

/** A positive id that fits the API's integer type (int32 for shield zones, int64 for core ids). */
export function checkId(what: string, value: unknown, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) {
    throw invalidInput(`${what} must be a positive whole number${max === INT32_MAX ? ` up to ${INT32_MAX}` : ''} (got ${shown(value)})`);
  }
  return n;
}

/**
 * Says "<what> was not found" for a 404 that carries an API error key (an HTML 404 from a wrong
 * URL keeps its own message); other errors pass through.
 */
export function renameNotFound(error: unknown, what: string): unknown {
  if (error instanceof ApiError && error.kind === 'http' && error.status === 404 && error.code) {
    return new ApiError({
      kind: 'http',
      status: 404,
      code: error.code,
      method: error.method ?? undefined,
      path: error.path ?? undefined,
      message: `${what} was not found (404 ${error.code})`,
    });
  }
  return error;
}
