import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { appModeOf } from './app.config';
import { envEnum, envInt, envOptional, invalidConfig } from './env-reader';
import { pkcs11KeySettingsOf, type Pkcs11KeySettings } from './pkcs11-settings';

/** What signs trade authorizations (hook v3): a key in the environment, or a key in a PKCS#11 token. */
export const AUTHORIZER_SIGNERS = ['key', 'pkcs11'] as const;
export type AuthorizerSignerKind = (typeof AUTHORIZER_SIGNERS)[number];

/**
 * Per-trade authorizations (issue 54, hook v3): the key that signs them and how long one lives.
 * Unset key outside production: the attester's key signs (devnet account 0 by default). In
 * production the key is required as soon as the network's hook is v3 (TradeAuthorizer refuses to
 * start without it); a network still on v2 issues none and needs none.
 */
export const tradingConfig = registerAs('trading', () => {
  const env = process.env;
  const production = appModeOf(env) === 'production';
  const authorizerSigner = envEnum(env, 'AUTHORIZER_SIGNER', AUTHORIZER_SIGNERS, 'key');
  return {
    production,
    authorizerSigner,
    /** AUTHORIZER_PRIVATE_KEY (0x + 64 hex); undefined: the attester's key (not in production). */
    authorizerPrivateKey: authorizerPrivateKey(env, authorizerSigner),
    /** AUTHORIZER_SIGNER=pkcs11: the key labelled AUTHORIZER_PKCS11_KEY_LABEL in the PKCS#11 token. */
    authorizerPkcs11: authorizerPkcs11(env, authorizerSigner),
    /**
     * The longest an authorization lives (chain time): an authorized build asking for a later
     * deadline is built to now + this. The default is the builds' own default deadline (20 min).
     */
    authorizationTtlSeconds: envInt(env, 'AUTHORIZATION_TTL_SECONDS', 1200, {
      min: 30,
      max: 24 * 60 * 60,
    }),
  };
});

export type TradingConfig = ConfigType<typeof tradingConfig>;
/** The DI token of this namespace (see configToken). */
export const TradingConfig = configToken(tradingConfig);

type Env = Record<string, string | undefined>;

function authorizerPrivateKey(env: Env, signer: AuthorizerSignerKind): string | undefined {
  const given = envOptional(env, 'AUTHORIZER_PRIVATE_KEY');
  if (given === undefined) return undefined;
  if (signer === 'pkcs11')
    return invalidConfig(
      'AUTHORIZER_PRIVATE_KEY',
      "must be unset with AUTHORIZER_SIGNER=pkcs11: the authorizer key is the token's (AUTHORIZER_PKCS11_KEY_LABEL)",
      given,
      undefined,
    );
  if (!/^0x[0-9a-fA-F]{64}$/.test(given))
    return invalidConfig(
      'AUTHORIZER_PRIVATE_KEY',
      'must be 0x followed by 64 hex characters',
      given,
      undefined,
    );
  return given;
}

function authorizerPkcs11(env: Env, signer: AuthorizerSignerKind): Pkcs11KeySettings | undefined {
  if (signer !== 'pkcs11') return undefined;
  return pkcs11KeySettingsOf(env, {
    variable: 'AUTHORIZER_PKCS11_KEY_LABEL',
    label: envOptional(env, 'AUTHORIZER_PKCS11_KEY_LABEL'),
  });
}
