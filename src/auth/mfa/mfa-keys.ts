import { Inject, Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { securityConfig, SecurityConfig } from '../../config/security.config';
import { JwtSecret } from '../tokens/jwt-secret';

const VERSION = 'v1';

/**
 * The server-side keys of two-factor sign-in, both derived with HKDF-SHA-256 from
 * MFA_ENCRYPTION_KEY (or, when unset, the JWT secret): one encrypts TOTP secrets at rest
 * (AES-256-GCM: a database copy alone does not yield them), the other keys the HMAC of recovery
 * codes (10 random base32 characters: too few bits for a plain fast hash against a stolen table).
 */
@Injectable()
export class MfaKeys {
  private readonly encryptionKey: Buffer;
  private readonly recoveryKey: Buffer;

  constructor(@Inject(securityConfig.KEY) config: SecurityConfig, jwtSecret: JwtSecret) {
    const material = Buffer.from(config.mfaEncryptionKey ?? jwtSecret.value, 'utf8');
    this.encryptionKey = derive(material, 'totp-secret-encryption-v1');
    this.recoveryKey = derive(material, 'mfa-recovery-code-hmac-v1');
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the stored value was not sealed with this key (e.g. the key was rotated). */
  decrypt(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined)
      throw new Error('Unknown TOTP secret format');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      this.encryptionKey,
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  recoveryCodeHash(normalizedCode: string): string {
    return createHmac('sha256', this.recoveryKey).update(normalizedCode, 'utf8').digest('hex');
  }
}

function derive(material: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), info, 32));
}
