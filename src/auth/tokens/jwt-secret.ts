import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../config/app.config';
import { AuthConfig, MIN_SECRET_LENGTH } from '../../config/auth.config';

/**
 * The HS256 secret: JWT_SECRET when set (authConfig validates it, and requires it in production);
 * otherwise generated once and kept in DATA_DIR/jwt-secret (mode 0600), so tokens survive restarts
 * and instances sharing DATA_DIR agree.
 */
@Injectable()
export class JwtSecret {
  readonly value: string;
  /** JWT_PREVIOUS_SECRETS: still accepted when verifying, so a rotation logs nobody out. */
  readonly previous: readonly string[];

  constructor(auth: AuthConfig, app: AppConfig) {
    this.value = auth.jwtSecret ?? storedJwtSecret(app.dataDir);
    this.previous = auth.jwtPreviousSecrets.filter((secret) => secret !== this.value);
  }

  /** The `kid` of tokens signed with the current secret. */
  get keyId(): string {
    return jwtKeyId(this.value);
  }

  /**
   * The secrets to verify a token with: the one its `kid` names, or (a token signed before key
   * ids, or by a secret no longer listed) every accepted one, current first.
   */
  verificationSecrets(kid: unknown): string[] {
    const accepted = [this.value, ...this.previous];
    const named = accepted.find((secret) => jwtKeyId(secret) === kid);
    return named ? [named] : kid === undefined ? accepted : [];
  }
}

/**
 * A key id that names a secret without revealing it: 16 hex digits of a SHA-256 of the secret
 * (32+ random characters, so the digest cannot be inverted).
 */
export function jwtKeyId(secret: string): string {
  return createHash('sha256').update(`cgk-jwt-kid:${secret}`).digest('hex').slice(0, 16);
}

/** Reads DATA_DIR/jwt-secret, or creates it (0600) when missing or too short. */
export function storedJwtSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= MIN_SECRET_LENGTH) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
