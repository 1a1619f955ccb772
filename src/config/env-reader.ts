/**
 * Typed readers for environment variables. Every config namespace parses its own variables with
 * these, so a bad value stops the boot with a message that names the variable and what it expects.
 */
export class InvalidConfigError extends Error {
  constructor(
    readonly variable: string,
    expectation: string,
    value: string | undefined,
  ) {
    super(
      `Invalid configuration: ${variable} ${expectation}` +
        (value === undefined
          ? ' (it is not set)'
          : ` (got ${JSON.stringify(redact(variable, value))})`),
    );
    this.name = 'InvalidConfigError';
  }
}

// Secrets must never be echoed back, even in a boot failure.
function redact(variable: string, value: string): string {
  return /SECRET|KEY|PASSWORD|TOKEN/i.test(variable) ? '<redacted>' : value;
}

type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function envString(env: Env, name: string, fallback?: string): string {
  const value = raw(env, name) ?? fallback;
  if (value === undefined) throw new InvalidConfigError(name, 'is required', undefined);
  return value;
}

export function envOptional(env: Env, name: string): string | undefined {
  return raw(env, name);
}

export function envInt(
  env: Env,
  name: string,
  fallback: number,
  bounds: { min?: number; max?: number } = {},
): number {
  const text = raw(env, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = bounds;
  if (!/^-?\d+$/.test(text) || value < min || value > max) {
    throw new InvalidConfigError(name, `must be an integer between ${min} and ${max}`, text);
  }
  return value;
}

export function envBool(env: Env, name: string, fallback: boolean): boolean {
  const text = raw(env, name);
  if (text === undefined) return fallback;
  if (/^(1|true|yes)$/i.test(text)) return true;
  if (/^(0|false|no)$/i.test(text)) return false;
  throw new InvalidConfigError(name, 'must be true or false', text);
}

export function envEnum<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const text = raw(env, name);
  if (text === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(text)) {
    throw new InvalidConfigError(name, `must be one of ${allowed.join(', ')}`, text);
  }
  return text as T;
}

export function envUrl(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const text = raw(env, name);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidConfigError(name, `must be a URL (${protocols.join(', ')})`, text);
  }
  if (!protocols.includes(url.protocol.replace(/:$/, ''))) {
    throw new InvalidConfigError(
      name,
      `must use one of the protocols ${protocols.join(', ')}`,
      text,
    );
  }
  return text;
}
