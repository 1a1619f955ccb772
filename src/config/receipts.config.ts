import { ConfigType, registerAs } from '@nestjs/config';
import { Es256Key, parseEs256PrivateKey } from './es256-key';
import { configToken } from './config-token';
import { appModeOf } from './app.config';
import { envInt, envOptional, invalidConfig } from './env-reader';

/** Compliance receipts (issue 56): the key they are signed with. */
export const receiptsConfig = registerAs('receipts', () => {
  const env = process.env;
  const text = envOptional(env, 'RECEIPT_SIGNING_KEY');
  const production = appModeOf(env) === 'production';
  const expected =
    'an ES256 (P-256) private key: base64 PKCS#8 on one line (the RECEIPT_SIGNING_KEY= line of ' +
    'npm run cli -- keys generate), a PEM, or a JWK {"kty":"EC","crv":"P-256",...,"d":...}';
  let signingKey: Es256Key | undefined;
  if (text !== undefined)
    signingKey =
      parseEs256PrivateKey(text) ??
      invalidConfig('RECEIPT_SIGNING_KEY', `must be ${expected}`, text, undefined);
  else if (production)
    signingKey = invalidConfig(
      'RECEIPT_SIGNING_KEY',
      `is required in production mode: ${expected}`,
      undefined,
      undefined,
    );
  return {
    /**
     * The current signing key. Unset outside production: generated once and kept in
     * DATA_DIR/receipt-signing-key.jwk (mode 0600), like the JWT secret.
     */
    signingKey,
    /**
     * How often each instance reads new blocks for the transactions of waiting receipts that were
     * not relayed (sent by the wallet itself); 0 = off (relayed ones get their execution anyway).
     */
    watchIntervalMs: envInt(env, 'RECEIPT_WATCH_INTERVAL_MS', 15_000, { min: 0, max: 3_600_000 }),
  };
});

export type ReceiptsConfig = ConfigType<typeof receiptsConfig>;
/** The DI token of this namespace (see configToken). */
export const ReceiptsConfig = configToken(receiptsConfig);
