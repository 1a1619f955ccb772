import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appConfig, AppConfig } from '../../config/app.config';
import { authConfig, AuthConfig, MIN_SECRET_LENGTH } from '../../config/auth.config';

/**
 * The HS256 secret: JWT_SECRET when set (authConfig validates it, and requires it in production);
 * otherwise generated once and kept in DATA_DIR/jwt-secret (mode 0600), so tokens survive restarts
 * and instances sharing DATA_DIR agree.
 */
@Injectable()
export class JwtSecret {
  readonly value: string;

  constructor(@Inject(authConfig.KEY) auth: AuthConfig, @Inject(appConfig.KEY) app: AppConfig) {
    this.value = auth.jwtSecret ?? storedJwtSecret(app.dataDir);
  }
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
