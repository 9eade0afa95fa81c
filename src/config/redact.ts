/**
 * Secrets are masked everywhere unless the user asks for them. Every secret burrow learns
 * (API keys, tokens, library keys) is registered here so that error messages and debug logs
 * can be scrubbed even when the secret reaches them by accident.
 */
const known = new Set<string>();

export function registerSecret(secret: string | null | undefined): void {
  if (secret && secret.length >= 6) known.add(secret);
}

/** "••••••••3f9a": keeps the last four characters so two keys can be told apart. */
export function maskSecret(secret: string | null | undefined): string {
  if (secret === null || secret === undefined || secret === '') return '';
  if (secret.length <= 8) return '••••••••';
  return `••••••••${secret.slice(-4)}`;
}

/** Replaces every registered secret inside free text with its mask. */
export function redact(text: string): string {
  let out = text;
  for (const secret of known) {
    if (out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
  }
  return out;
}

const SECRET_FIELD = /^(apikey|readonlyapikey|apiaccesskey|accesskey|token|authtoken|authorization|databasetoken|readonlydatabasetoken|password|secret)$/i;

export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name);
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
