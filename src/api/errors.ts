import { redact } from '../config/redact';
import { terminalSafe } from '../text/terminal-safe';

export type ApiErrorKind =
  | 'http' // the server answered with an error status
  | 'network' // connection refused/reset, DNS, TLS
  | 'timeout' // no answer in time (safe request)
  | 'unknown-outcome' // a mutation whose answer was lost: it may or may not have been applied
  | 'aborted' // cancelled by us
  | 'malformed' // a 2xx body we could not read
  | 'invalid-input'; // refused before sending

export interface FieldError {
  field: string | null;
  message: string;
}

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number | null;
  code?: string | null;
  fieldErrors?: FieldError[];
  method?: string;
  path?: string;
  cause?: unknown;
  /** How long the server asked to wait before the next request (its Retry-After), in ms. */
  retryAfterMs?: number | null;
}

/**
 * The one error type every client throws. `message` is what the status bar shows. A server's text
 * in it (Message, errorKey, field errors) is made terminal-safe here, so no screen or stderr line
 * that shows an error can pass on a control sequence.
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | null;
  readonly code: string | null;
  readonly fieldErrors: FieldError[];
  readonly method: string | null;
  readonly path: string | null;
  readonly retryAfterMs: number | null;

  constructor(init: ApiErrorInit) {
    super(terminalSafe(redact(init.message)), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.code = init.code === undefined || init.code === null ? null : terminalSafe(init.code);
    this.fieldErrors = (init.fieldErrors ?? []).map((f) => ({
      field: f.field === null ? null : terminalSafe(f.field),
      message: terminalSafe(redact(f.message)),
    }));
    this.method = init.method ?? null;
    this.path = init.path ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }

  /** Retrying a safe request may help: network trouble, timeouts, 5xx and 429. */
  get transient(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true;
    return this.kind === 'http' && this.status !== null && (this.status >= 500 || this.status === 429);
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

const REASONS: Record<number, string> = {
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const HINTS: Record<number, string> = {
  401: 'the credentials were refused; check the API key or token',
  403: 'not allowed with these credentials',
  404: 'not found',
  429: 'rate limited; burrow backs off and retries safe requests',
};

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

interface Parsed {
  message: string | null;
  code: string | null;
  fieldErrors: FieldError[];
}

/** Reads every error body shape the platform sends. Returns nulls when none fits. */
export function parseErrorBody(body: unknown): Parsed {
  const none: Parsed = { message: null, code: null, fieldErrors: [] };
  if (typeof body === 'string') return { ...none, message: str(body) };
  if (!isObj(body)) return none;

  // Shield `{error: GenericRequestResponse, data}` and logging `{error: {code, message, details}}`
  if (isObj(body.error)) {
    const e = body.error;
    const details = Array.isArray(e.details) ? e.details.filter((d): d is string => str(d) !== null) : [];
    return {
      message: str(e.message) ?? (details.length ? details.join('; ') : null),
      code: str(e.errorKey) ?? str(e.code),
      fieldErrors: details.map((message) => ({ field: null, message })),
    };
  }
  // Database management AppError `{error: "message", details?}`
  if (str(body.error)) {
    const details = body.details;
    const extra = str(details) ?? (isObj(details) || Array.isArray(details) ? JSON.stringify(details) : null);
    return { message: extra ? `${body.error as string}: ${extra}` : (body.error as string), code: null, fieldErrors: [] };
  }
  // Core `ApiErrorData` {ErrorKey, Field, Message}
  if ('ErrorKey' in body || 'Message' in body) {
    const field = str(body.Field);
    return {
      message: str(body.Message),
      code: str(body.ErrorKey),
      fieldErrors: field ? [{ field, message: str(body.Message) ?? 'invalid' }] : [],
    };
  }
  // ProblemDetails and the MC validation shape `{title, status, detail, instance, errors[], id}`
  if ('title' in body || 'detail' in body || 'errors' in body) {
    const fieldErrors: FieldError[] = [];
    if (Array.isArray(body.errors)) {
      for (const e of body.errors) {
        if (isObj(e) && str(e.message)) fieldErrors.push({ field: str(e.field), message: e.message as string });
        else if (str(e)) fieldErrors.push({ field: null, message: e as string });
      }
    } else if (isObj(body.errors)) {
      // ASP.NET validation problem: { errors: { Field: ["msg"] } }
      for (const [field, msgs] of Object.entries(body.errors)) {
        for (const m of Array.isArray(msgs) ? msgs : [msgs]) if (str(m)) fieldErrors.push({ field, message: m as string });
      }
    }
    return { message: str(body.detail) ?? str(body.title), code: str(body.type) && !/^https?:/.test(String(body.type)) ? str(body.type) : null, fieldErrors };
  }
  // Hrana / sqld `{message, code}` and Stream `{success, message, statusCode}`
  if (str(body.message)) return { message: str(body.message), code: str(body.code), fieldErrors: [] };
  return none;
}

const MAX_TEXT = 500;

/** The status bar shows one line: a body's newlines and a runaway length must not break it. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT - 1)}…` : flat;
}

function htmlTitle(text: string): string | null {
  const m = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text);
  return m ? m[1]!.trim().replace(/\s+/g, ' ') : null;
}

/** Builds the ApiError for an error status from the raw body the server sent. */
export function apiErrorFromResponse(
  status: number,
  contentType: string | null,
  bodyText: string,
  ctx: { method: string; path: string; location?: string | null; retryAfter?: string | null },
): ApiError {
  const reason = REASONS[status] ?? 'Error';
  const trimmed = bodyText.trim();
  let parsed: Parsed = { message: null, code: null, fieldErrors: [] };
  let note: string | null = null;
  if (status >= 300 && status < 400) {
    // never followed (a redirect could take the credentials elsewhere); where it points helps fix the URL
    note = ctx.location
      ? `the server redirects to ${oneLine(ctx.location)} (burrow does not follow redirects: if that address is right, use it)`
      : 'the server answered with a redirect but no Location (burrow does not follow redirects)';
  } else if (trimmed === '') {
    note = HINTS[status] ?? null;
  } else if (/html/i.test(contentType ?? '') || /^<(!doctype|html)/i.test(trimmed)) {
    const title = htmlTitle(trimmed);
    note = `the server sent an HTML page${title ? ` ("${title}")` : ''} instead of an API answer; is the URL right?`;
  } else {
    try {
      parsed = parseErrorBody(JSON.parse(trimmed));
      if (parsed.message === null && parsed.code === null) note = HINTS[status] ?? null;
    } catch {
      parsed = { message: trimmed.split('\n')[0]!.slice(0, 200), code: null, fieldErrors: [] };
    }
  }
  const head = `${status} ${reason}`;
  const code = parsed.code ? ` ${parsed.code}` : '';
  let text = parsed.message ?? note ?? '';
  const fields = parsed.fieldErrors.filter((f) => f.message !== parsed.message).map((f) => (f.field ? `${f.field}: ${f.message}` : f.message));
  if (fields.length && !text.includes(fields[0]!)) text = text ? `${text} (${fields.join('; ')})` : fields.join('; ');
  text = oneLine(text);
  return new ApiError({
    kind: 'http',
    status,
    code: parsed.code,
    fieldErrors: parsed.fieldErrors,
    message: `${head}${code}${text ? `: ${text}` : ''}`,
    method: ctx.method,
    path: ctx.path,
    retryAfterMs: parseRetryAfter(ctx.retryAfter ?? null, Date.now()),
  });
}

/** Longest wait a Retry-After is believed for (a server asking for hours is capped). */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/** A Retry-After header (delta-seconds or an HTTP date) in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  const v = value?.trim();
  if (!v) return null;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at) || !/[a-z]/i.test(v)) return null;
    ms = at - now;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms)));
}
