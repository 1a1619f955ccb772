/**
 * Typed readers for environment variables. Every config namespace parses its own variables with
 * these, so a bad value stops the boot with a message that names the variable and what it expects.
 *
 * Two ways a problem is reported. At runtime (Nest's ConfigModule calling a namespace) the first
 * one throws, as before. Inside `collectConfigErrors` (validateConfiguration, before the boot) a
 * problem is recorded instead and the reader returns a placeholder, so the namespace goes on and
 * an operator learns every missing or bad variable from one failed start, not one per start.
 */
export class InvalidConfigError extends Error {
  /** `NAME must ... (got "…")`: the message without its "Invalid configuration: " prefix. */
  readonly problem: string;

  constructor(
    readonly variable: string,
    expectation: string,
    value: string | undefined,
  ) {
    const problem =
      `${variable} ${expectation}` +
      (value === undefined
        ? ' (it is not set)'
        : ` (got ${JSON.stringify(redactConfigValue(variable, value))})`);
    super(`Invalid configuration: ${problem}`);
    this.name = 'InvalidConfigError';
    this.problem = problem;
  }
}

/**
 * Secrets must never be echoed back, even in a boot failure: the whole value of a variable named
 * like a secret, and the credentials (and path, which may hold an API key) of a URL.
 */
export function redactConfigValue(variable: string, value: string): string {
  if (/SECRET|KEY|PASSWORD|TOKEN|_PIN$/i.test(variable)) return '<redacted>';
  if (/_URL$/.test(variable)) return redactUrl(value);
  return value;
}

function redactUrl(value: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)?([^/?#]*@)?([^/?#]*)([\s\S]*)$/.exec(value);
  if (!match) return '<redacted>';
  const [, scheme = '', credentials, host, rest] = match;
  return `${scheme}${credentials ? '<redacted>@' : ''}${host}${rest ? '/…' : ''}`;
}

let collector: InvalidConfigError[] | undefined;

/**
 * Runs `parse` (a namespace factory) recording every configuration problem instead of stopping at
 * the first. A namespace that throws an InvalidConfigError itself still reports that one.
 */
export function collectConfigErrors(parse: () => unknown): InvalidConfigError[] {
  const outer = collector;
  const problems: InvalidConfigError[] = [];
  collector = problems;
  try {
    parse();
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    problems.push(error);
  } finally {
    collector = outer;
  }
  return problems;
}

/**
 * Reports a bad or missing variable: throws at runtime; while collecting, records it and returns
 * `placeholder` so the caller can go on reading the other variables.
 */
export function invalidConfig<T>(
  variable: string,
  expectation: string,
  value: string | undefined,
  placeholder: T,
): T {
  const error = new InvalidConfigError(variable, expectation, value);
  if (!collector) throw error;
  collector.push(error);
  return placeholder;
}

type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function envString(env: Env, name: string, fallback?: string): string {
  const value = raw(env, name) ?? fallback;
  return value ?? invalidConfig(name, 'is required', undefined, '');
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
  if (!/^-?\d+$/.test(text) || value < min || value > max)
    return invalidConfig(name, `must be an integer between ${min} and ${max}`, text, fallback);
  return value;
}

export function envBool(env: Env, name: string, fallback: boolean): boolean {
  const text = raw(env, name);
  if (text === undefined) return fallback;
  if (/^(1|true|yes)$/i.test(text)) return true;
  if (/^(0|false|no)$/i.test(text)) return false;
  return invalidConfig(name, 'must be true or false', text, fallback);
}

export function envEnum<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const text = raw(env, name);
  if (text === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(text))
    return invalidConfig(name, `must be one of ${allowed.join(', ')}`, text, fallback);
  return text as T;
}

export function envUrl(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const text = raw(env, name);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalidConfig(name, `must be a URL (${protocols.join(', ')})`, text, undefined);
  }
  if (!protocols.includes(url.protocol.replace(/:$/, '')))
    return invalidConfig(
      name,
      `must use one of the protocols ${protocols.join(', ')}`,
      text,
      undefined,
    );
  return text;
}

/** An optional secret: unset is undefined; a set one shorter than `minLength` is refused. */
export function envSecret(env: Env, name: string, minLength: number): string | undefined {
  const given = envOptional(env, name);
  if (given !== undefined && given.length < minLength)
    return invalidConfig(name, `must have at least ${minLength} characters`, given, undefined);
  return given;
}

/**
 * A comma-separated list of secrets (older keys still accepted after a rotation): unset is [];
 * each entry shorter than `minLength` is refused, naming its position (never its value).
 */
export function envSecretList(env: Env, name: string, minLength: number): string[] {
  const entries = (envOptional(env, name) ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const short = entries.findIndex((entry) => entry.length < minLength);
  if (short >= 0)
    return invalidConfig(
      name,
      `entry ${short + 1} must have at least ${minLength} characters`,
      entries[short],
      [],
    );
  return entries;
}

/**
 * A secret production must be given, distinct from JWT_SECRET (so rotating one never touches
 * what the other protects); elsewhere optional, as envSecret.
 */
export function envProductionSecret(
  env: Env,
  name: string,
  minLength: number,
  production: boolean,
): string | undefined {
  const given = envSecret(env, name, minLength);
  if (!production) return given;
  if (given === undefined)
    return invalidConfig(
      name,
      `is required in production mode: ${minLength}+ random characters, e.g. openssl rand -base64 48`,
      undefined,
      undefined,
    );
  if (given === raw(env, 'JWT_SECRET'))
    return invalidConfig(name, 'must differ from JWT_SECRET', given, undefined);
  return given;
}
