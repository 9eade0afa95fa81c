/**
 * Secrets are masked everywhere unless the user asks for them. Every secret burrow learns
 * (API keys, tokens, library keys) is registered here so that error messages and debug logs
 * can be scrubbed even when the secret reaches them by accident.
 */
const known = new Set<string>();

/**
 * A server that echoes part of a secret ("invalid key a1b2c3d4...") must not show that part either:
 * every run of PART characters of a secret's random part is known, and text containing one is masked.
 */
const PART = 8;
const parts = new Set<string>();

/** The random part of a secret: a JWT's header and claims repeat from token to token, its signature does not. */
function randomPart(secret: string): string {
  const jwt = /^[\w-]+\.[\w-]+\.([\w-]+)$/.exec(secret);
  return jwt ? jwt[1]! : secret;
}

export function registerSecret(secret: string | null | undefined): void {
  if (!secret || secret.length < 6 || known.has(secret)) return;
  known.add(secret);
  const random = randomPart(secret);
  if (random.length < 2 * PART) return;
  for (let i = 0; i + PART <= random.length; i++) parts.add(random.slice(i, i + PART));
}

/** "••••••••3f9a": keeps the last four characters so two keys can be told apart. */
export function maskSecret(secret: string | null | undefined): string {
  if (secret === null || secret === undefined || secret === '') return '';
  if (secret.length <= 8) return '••••••••';
  return `••••••••${secret.slice(-4)}`;
}

/** user:password@ in a URL, and secret-named query parameters. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/gi;
const SECRET_PARAM = /([?&](?:auth_?token|token|jwt|access_?key|api_?key|password|secret)=)[^&\s#]+/gi;

/** Masks every run of text that contains a known part of a secret. */
function redactParts(text: string): string {
  if (parts.size === 0 || text.length < PART) return text;
  let out = '';
  let copied = 0;
  let runStart = -1;
  let runEnd = -1;
  for (let i = 0; i + PART <= text.length; i++) {
    if (!parts.has(text.slice(i, i + PART))) continue;
    if (runStart >= 0 && i <= runEnd) {
      runEnd = i + PART;
      continue;
    }
    if (runStart >= 0) {
      out += `${text.slice(copied, runStart)}••••••••`;
      copied = runEnd;
    }
    runStart = i;
    runEnd = i + PART;
  }
  if (runStart < 0) return text;
  return `${out}${text.slice(copied, runStart)}••••••••${text.slice(runEnd)}`;
}

/**
 * Replaces every registered secret inside free text with its mask, and what looks like one: a
 * part of a registered secret, a password in a URL, a token in a query string.
 */
export function redact(text: string): string {
  let out = text;
  for (const secret of known) {
    if (out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
  }
  out = redactParts(out);
  return out.replace(URL_PASSWORD, '$1:••••••••@').replace(SECRET_PARAM, '$1••••••••');
}

const SECRET_FIELD =
  /^(apikey|readonlyapikey|apiaccesskey|accesskey|token|authtoken|authorization|authorizationheader|databasetoken|readonlydatabasetoken|password|secret)$/i;
/** Names that end like a secret: StoragePassword, ZoneSecurityKey, AWSSigningSecret, api_key, refresh_token. */
const SECRET_SUFFIX =
  /(password|passwd|secret|api_?key|access_?key|private_?key|security_?key|signing_?key|_token|authtoken|auth_token|accesstoken|refreshtoken|databasetoken)$/i;

export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name) || SECRET_SUFFIX.test(name);
}

/** Deep copy of a JSON value with secret-named fields masked. */
export function maskSecretFields<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => maskSecretFields(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = isSecretField(k) && typeof v === 'string' ? maskSecret(v) : maskSecretFields(v);
    }
    return out as T;
  }
  return value;
}
