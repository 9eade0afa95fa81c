import { BodyError, type Ctx } from '../http-kit';

/**
 * Error answers in the shape of each management API family:
 * shield `{error: GenericRequestResponse}` (data left out: it is not nullable in the schema),
 * Magic Containers `ErrorDetails` (RFC 7807 with errors[] and id), core `ApiErrorData`.
 */

export function shieldError(ctx: Ctx, status: number, errorKey: string, message: string): void {
  ctx.send(status, { error: { statusCode: status, success: false, message, errorKey } });
}

/** The success envelope: `{error: {statusCode: 200, success: true}, data}`. */
export function shieldOk(ctx: Ctx, data: unknown): void {
  ctx.send(200, { error: { statusCode: 200, success: true, message: null, errorKey: null }, data });
}

/** ASP.NET's answer when a route value cannot be bound (shield ids are int32). */
export function aspNetBindingError(ctx: Ctx, name: string, value: string): void {
  ctx.send(400, {
    type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
    title: 'One or more validation errors occurred.',
    status: 400,
    errors: { [name]: [`The value '${value}' is not valid.`] },
  });
}

export interface McFieldError {
  field: string | null;
  message: string;
}

const MC_TITLES: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 422: 'Unprocessable Entity' };

export function mcError(ctx: Ctx, status: number, detail: string, errors: McFieldError[] | null = null, id: string | null = null): void {
  const body: Record<string, unknown> = { title: MC_TITLES[status] ?? 'Error', status, detail, instance: ctx.path };
  if (errors) body.errors = errors;
  if (id !== null) body.id = id;
  ctx.send(status, body, { 'content-type': 'application/problem+json; charset=utf-8' });
}

export function coreError(ctx: Ctx, status: number, errorKey: string, field: string, message: string): void {
  ctx.send(status, { ErrorKey: errorKey, Field: field, Message: message });
}

/** Reads the JSON body; on failure answers in the family's shape and returns undefined. */
export async function readJson(ctx: Ctx, fail: (message: string, status: number) => void): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: await ctx.json() };
  } catch (error) {
    if (error instanceof BodyError) {
      fail(error.message, error.status);
      return { ok: false };
    }
    throw error;
  }
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const INT32_MAX = 2147483647;

/** A whole number written in decimal with no sign/space tricks, or null. */
export function parseWhole(text: string): number | null {
  if (!/^-?\d{1,19}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/** A path id that must be a positive int32; null when it is not. */
export function int32Id(text: string): number | null {
  const n = parseWhole(text);
  return n !== null && n >= -2147483648 && n <= INT32_MAX ? n : null;
}
