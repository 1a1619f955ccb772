import { envOptional, invalidConfig } from './env-reader';

type Env = Record<string, string | undefined>;

/** Where a PKCS#11 key is: the vendor's library, the token, its user PIN and the key's label. */
export interface Pkcs11KeySettings {
  module: string;
  tokenLabel: string;
  pin: string;
  keyLabel: string;
}

/**
 * The PKCS#11 settings every key kept in a token shares (PKCS11_MODULE, PKCS11_TOKEN_LABEL,
 * PKCS11_PIN), with the key's label as its own variable gave it (PKCS11_KEY_LABEL for the
 * attester, PKCS11_STANDBY_KEY_LABEL for its standby; another key of the same token names its
 * own). A missing one is reported by name.
 */
export function pkcs11KeySettingsOf(
  env: Env,
  key: { variable: string; label: string | undefined },
): Pkcs11KeySettings {
  const missing = (name: string, what: string): string =>
    invalidConfig(name, `is required with a PKCS#11 signer: ${what}`, undefined, '');
  return {
    module:
      envOptional(env, 'PKCS11_MODULE') ??
      missing(
        'PKCS11_MODULE',
        'the path of the PKCS#11 library (SoftHSM2: /usr/lib/softhsm/libsofthsm2.so)',
      ),
    tokenLabel:
      envOptional(env, 'PKCS11_TOKEN_LABEL') ??
      missing('PKCS11_TOKEN_LABEL', 'the label of the token that holds the key'),
    pin: envOptional(env, 'PKCS11_PIN') ?? missing('PKCS11_PIN', "the token's user PIN"),
    keyLabel: key.label ?? missing(key.variable, 'the label (CKA_LABEL) of the secp256k1 key pair'),
  };
}
