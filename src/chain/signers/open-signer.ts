/**
 * The one way the service gets a signer for a key it holds (the attester's; the trade authorizer's
 * may use it too): a private key from the environment (ethers' Wallet), or a key that stays in a
 * PKCS#11 token (Pkcs11Signer). Either is an ethers AbstractSigner with a synchronous `address`;
 * `close()` releases what it holds (the token session) and is a no-op for a Wallet.
 */
import { AbstractSigner, Provider, Wallet } from 'ethers';
import type { Pkcs11KeySettings } from '../../config/pkcs11-settings';
import { Pkcs11Signer } from './pkcs11-signer';

export type SignerSource = { privateKey: string } | { pkcs11: Pkcs11KeySettings };

export interface HeldSigner {
  readonly signer: AbstractSigner;
  readonly address: string;
  /** `key` or `pkcs11:<token label>/<key label>`: for logs and readiness, never key material. */
  readonly description: string;
  close(): void;
}

/** Opens `source` on `provider`; a PKCS#11 setting that does not lead to a key throws naming it. */
export function openSigner(
  source: SignerSource,
  provider: Provider | null,
  keyLabelSetting = 'PKCS11_KEY_LABEL',
): HeldSigner {
  if ('privateKey' in source) {
    const wallet = new Wallet(source.privateKey, provider);
    return { signer: wallet, address: wallet.address, description: 'key', close: () => undefined };
  }
  const signer = Pkcs11Signer.open(source.pkcs11, provider, keyLabelSetting);
  return {
    signer,
    address: signer.address,
    description: `pkcs11:${source.pkcs11.tokenLabel}/${source.pkcs11.keyLabel}`,
    close: () => signer.close(),
  };
}

/** The address of `source`'s key (the token opened and released again for a PKCS#11 key). */
export function addressOf(source: SignerSource, keyLabelSetting?: string): string {
  const held = openSigner(source, null, keyLabelSetting);
  try {
    return held.address;
  } finally {
    held.close();
  }
}
