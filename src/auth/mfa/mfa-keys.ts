import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { keyMaterials, Opened, openWithAny } from '../../common/crypto/keyring';
import { SecurityConfig } from '../../config/security.config';
import { JwtSecret } from '../tokens/jwt-secret';

const VERSION = 'v1';

/** The setting an operator fixes when a stored TOTP secret cannot be read. */
export const MFA_KEY_SETTING = 'MFA_ENCRYPTION_KEY';

/**
 * The server-side keys of two-factor sign-in, both derived with HKDF-SHA-256 from
 * MFA_ENCRYPTION_KEY (required in production; elsewhere, when unset, the JWT secret): one encrypts
 * TOTP secrets at rest (AES-256-GCM: a database copy alone does not yield them), the other keys the
 * HMAC of recovery codes (10 random base32 characters: too few bits for a plain fast hash against a
 * stolen table).
 *
 * Older keys stay readable: MFA_ENCRYPTION_PREVIOUS_KEYS, and the JWT secrets (current and
 * JWT_PREVIOUS_SECRETS), under which releases before MFA_ENCRYPTION_KEY was required kept these
 * values. A TOTP secret opened by an older key is re-encrypted under the current one (at sign-in,
 * and for all at start: MfaSecretsCheck); a recovery code is matched under every listed key.
 */
@Injectable()
export class MfaKeys {
  private readonly encryptionKeys: Buffer[];
  private readonly recoveryKeys: Buffer[];

  constructor(config: SecurityConfig, jwtSecret: JwtSecret) {
    const materials = keyMaterials(
      config.mfaEncryptionKey ?? jwtSecret.value,
      ...config.mfaPreviousKeys,
      jwtSecret.value,
      ...jwtSecret.previous,
    ).map((material) => Buffer.from(material, 'utf8'));
    this.encryptionKeys = materials.map((m) => derive(m, 'totp-secret-encryption-v1'));
    this.recoveryKeys = materials.map((m) => derive(m, 'mfa-recovery-code-hmac-v1'));
  }

  /** Sealed under the current key. */
  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKeys[0], iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The secret, and whether an older key opened it; undefined when no listed key does. */
  open(sealed: string): Opened | undefined {
    return openWithAny(this.encryptionKeys, (key) => decrypt(key, sealed));
  }

  /** The recovery code's HMAC under the current key (what new codes are stored as). */
  recoveryCodeHash(normalizedCode: string): string {
    return hmac(this.recoveryKeys[0], normalizedCode);
  }

  /** Its HMAC under every listed key: a code issued before a rotation still matches. */
  recoveryCodeHashes(normalizedCode: string): string[] {
    return this.recoveryKeys.map((key) => hmac(key, normalizedCode));
  }
}

/** Throws when the value was not sealed with this key. */
function decrypt(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined)
    throw new Error('Unknown TOTP secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

function hmac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

function derive(material: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), info, 32));
}
