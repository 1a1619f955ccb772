import { readFileSync } from 'node:fs';
import { InvalidConfigError } from './env-reader';

/**
 * Settings that may be given as a file instead (`NAME_FILE=/run/secrets/name`): Docker and
 * Compose secrets, Kubernetes secret volumes, a vault agent's rendered files. The secrets, and the
 * URLs that carry credentials (a database password, an RPC provider's key). Read once at start,
 * before the configuration is validated; the value then reads as if NAME had been set.
 */
export const FILE_SETTINGS = [
  'JWT_SECRET',
  'JWT_PREVIOUS_SECRETS',
  'MFA_ENCRYPTION_KEY',
  'MFA_ENCRYPTION_PREVIOUS_KEYS',
  'WEBHOOK_SECRETS_KEY',
  'WEBHOOK_SECRETS_PREVIOUS_KEYS',
  'ATTESTER_PRIVATE_KEY',
  'ATTESTER_STANDBY_PRIVATE_KEY',
  'AUTHORIZER_PRIVATE_KEY',
  'RECEIPT_SIGNING_KEY',
  'PKCS11_PIN',
  'ZK_ISSUER_PRIVATE_KEY',
  'DATABASE_URL',
  'REDIS_URL',
  'CHAIN_RPC_URL',
  'SMTP_URL',
] as const;

/**
 * Sets NAME from the file NAME_FILE names, for each of FILE_SETTINGS (trailing line breaks
 * dropped: `echo secret > file` works). Both set, or an unreadable or empty file, stops the start
 * naming NAME_FILE (never the value).
 */
export function loadSecretFiles(env: Record<string, string | undefined> = process.env): void {
  for (const name of FILE_SETTINGS) {
    const path = env[`${name}_FILE`]?.trim();
    if (!path) continue;
    if (env[name]?.trim())
      throw new InvalidConfigError(`${name}_FILE`, `and ${name} are both set: give one`, path);
    let value: string;
    try {
      value = readFileSync(path, 'utf8').replace(/[\r\n]+$/, '');
    } catch (error) {
      throw new InvalidConfigError(
        `${name}_FILE`,
        `names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        path,
      );
    }
    if (value.trim() === '')
      throw new InvalidConfigError(`${name}_FILE`, 'names an empty file', path);
    env[name] = value;
  }
}
