import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createPrivateKey, KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Repository } from 'typeorm';
import { isUniqueViolation } from '../../common/database/unique-violation';
import {
  Es256Key,
  Es256PublicJwk,
  generateEs256Key,
  parseEs256PrivateKey,
} from '../../config/es256-key';
import { AppConfig } from '../../config/app.config';
import { ReceiptsConfig } from '../../config/receipts.config';
import { ReceiptSigningKey } from './receipt-signing-key.entity';
import { compactJws } from './compact-jws';

/** A public key as the JWKS publishes it (RFC 7517). */
export interface PublishedJwk extends Es256PublicJwk {
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

/**
 * Signs receipts (JWS compact, ES256: compact-jws.ts, held to `jose` by its spec) with
 * RECEIPT_SIGNING_KEY, or outside production a key generated once under DATA_DIR; records each
 * key's public half for the JWKS at start.
 */
@Injectable()
export class ReceiptSigner implements OnModuleInit {
  readonly key: Es256Key;
  private readonly privateKey: KeyObject;

  constructor(
    config: ReceiptsConfig,
    app: AppConfig,
    @InjectRepository(ReceiptSigningKey) private readonly keys: Repository<ReceiptSigningKey>,
  ) {
    this.key = config.signingKey ?? storedSigningKey(app.dataDir);
    this.privateKey = createPrivateKey({ key: this.key.privateJwk as never, format: 'jwk' });
  }

  async onModuleInit(): Promise<void> {
    try {
      await this.keys.insert({
        kid: this.key.kid,
        publicJwk: JSON.stringify(this.key.publicJwk),
        firstUsedMs: Date.now(),
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** A compact JWS of `payload` (JSON text) with header { alg: ES256, kid, typ }. */
  sign(payload: string, typ: string): string {
    return compactJws(payload, { kid: this.key.kid, typ }, this.privateKey);
  }

  /** Every key receipts were signed with: the current one first, then the others, newest first. */
  async jwks(): Promise<{ keys: PublishedJwk[] }> {
    const rows = await this.keys.find({ order: { firstUsedMs: 'DESC' } });
    const published = (kid: string, jwk: Es256PublicJwk): PublishedJwk => ({
      kty: jwk.kty,
      crv: jwk.crv,
      x: jwk.x,
      y: jwk.y,
      kid,
      alg: 'ES256',
      use: 'sig',
    });
    return {
      keys: [
        published(this.key.kid, this.key.publicJwk),
        ...rows
          .filter((row) => row.kid !== this.key.kid)
          .map((row) => published(row.kid, JSON.parse(row.publicJwk) as Es256PublicJwk)),
      ],
    };
  }
}

/** Reads DATA_DIR/receipt-signing-key.jwk, or creates it (0600) when missing or unreadable. */
export function storedSigningKey(dataDir: string): Es256Key {
  const file = join(dataDir, 'receipt-signing-key.jwk');
  if (existsSync(file)) {
    const stored = parseEs256PrivateKey(readFileSync(file, 'utf8'));
    if (stored) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = generateEs256Key();
  writeFileSync(file, `${JSON.stringify(key.privateJwk)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}
