import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type ApiKeyMode = 'test' | 'live';

/** Hex characters after the mode that are stored in clear to find the key (design §4). */
export const LOOKUP_PREFIX_LENGTH = 12;
const SECRET_HEX_LENGTH = 48;

export interface ParsedApiKey {
  mode: ApiKeyMode;
  lookupPrefix: string;
}

/** `<prefix>_{test|live}_{48 hex}`: 192 bits from the CSPRNG. */
export function generateApiKey(servicePrefix: string, mode: ApiKeyMode): string {
  return `${servicePrefix}_${mode}_${randomBytes(SECRET_HEX_LENGTH / 2).toString('hex')}`;
}

/** The key pattern of each service prefix (one per process: API_KEY_PREFIX), made once. */
const PATTERNS = new Map<string, RegExp>();

export function parseApiKey(key: string, servicePrefix: string): ParsedApiKey | undefined {
  let pattern = PATTERNS.get(servicePrefix);
  if (!pattern) {
    pattern = new RegExp(`^${servicePrefix}_(test|live)_([0-9a-f]{${SECRET_HEX_LENGTH}})$`);
    PATTERNS.set(servicePrefix, pattern);
  }
  const match = pattern.exec(key);
  if (!match) return undefined;
  return { mode: match[1] as ApiKeyMode, lookupPrefix: match[2].slice(0, LOOKUP_PREFIX_LENGTH) };
}

/** SHA-256 is right for 192-bit random secrets: no dictionary to slow down, and it is fast per request. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function apiKeyHashMatches(key: string, storedHashHex: string): boolean {
  const actual = Buffer.from(hashApiKey(key), 'hex');
  const expected = Buffer.from(storedHashHex, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** What the dashboard shows to recognise a key: never more than the clear lookup prefix. */
export function displayPrefix(
  servicePrefix: string,
  mode: ApiKeyMode,
  lookupPrefix: string,
): string {
  return `${servicePrefix}_${mode}_${lookupPrefix}`;
}
