/**
 * An ethers Signer whose secp256k1 key lives in a PKCS#11 token and never leaves it: every
 * signature (transactions, EIP-191 messages, EIP-712 typed data) is a CKM_ECDSA operation of the
 * token over the digest ethers computes. The token answers r || s only; Ethereum also needs s in
 * the lower half of the curve order (EIP-2) and the recovery id, so s is normalised and v is the
 * one of 27/28 whose recovered key is the token's public key (read once, at open).
 */
import {
  AbstractSigner,
  assertArgument,
  computeAddress,
  copyRequest,
  getAddress,
  hashMessage,
  Provider,
  recoverAddress,
  resolveAddress,
  resolveProperties,
  Signature,
  toBeHex,
  Transaction,
  TransactionRequest,
  TypedDataDomain,
  TypedDataEncoder,
  TypedDataField,
  zeroPadValue,
} from 'ethers';
import { Pkcs11KeyPair, Pkcs11Settings, Pkcs11Token } from './pkcs11-token';

/** secp256k1's group order n; a signature's s above n/2 is replaced by n - s (EIP-2). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export interface Pkcs11KeySettings extends Pkcs11Settings {
  keyLabel: string;
}

export class Pkcs11Signer extends AbstractSigner {
  readonly address: string;

  private constructor(
    private readonly token: Pkcs11Token,
    private readonly key: Pkcs11KeyPair,
    readonly keyLabel: string,
    provider: Provider | null,
  ) {
    super(provider);
    this.address = computeAddress(`0x${key.publicPoint.toString('hex')}`);
  }

  /**
   * Opens the token (module loaded, PIN logged in) and finds the key pair labelled
   * `settings.keyLabel`; a wrong setting fails here naming it (Pkcs11SettingError).
   */
  static open(
    settings: Pkcs11KeySettings,
    provider: Provider | null = null,
    keySetting = 'PKCS11_KEY_LABEL',
  ): Pkcs11Signer {
    const token = Pkcs11Token.open(settings);
    try {
      return new Pkcs11Signer(
        token,
        token.findKeyPair(settings.keyLabel, keySetting),
        settings.keyLabel,
        provider,
      );
    } catch (error) {
      token.release();
      throw error;
    }
  }

  /** The same key through another provider (the token's session is shared; close each). */
  connect(provider: Provider | null): Pkcs11Signer {
    this.token.retain();
    return new Pkcs11Signer(this.token, this.key, this.keyLabel, provider);
  }

  getAddress(): Promise<string> {
    return Promise.resolve(this.address);
  }

  /** Logs out of the token once every signer on it has closed. */
  close(): void {
    this.token.release();
  }

  /** An Ethereum signature of `digest` (32 bytes): low s, v such that it recovers this address. */
  async signDigest(digest: string): Promise<Signature> {
    const rs = await this.token.signDigest(
      this.key.privateKey,
      Buffer.from(digest.slice(2), 'hex'),
    );
    return ethereumSignature(rs, digest, this.address);
  }

  async signTransaction(request: TransactionRequest): Promise<string> {
    const tx = copyRequest(request);
    const { to, from } = await resolveProperties({
      to: tx.to ? resolveAddress(tx.to, this) : undefined,
      from: tx.from ? resolveAddress(tx.from, this) : undefined,
    });
    if (to != null) tx.to = to;
    if (from != null) {
      assertArgument(
        getAddress(from) === this.address,
        'transaction from address mismatch',
        'tx.from',
        from,
      );
    }
    delete tx.from;
    const unsigned = Transaction.from(tx as Parameters<typeof Transaction.from>[0]);
    unsigned.signature = await this.signDigest(unsigned.unsignedHash);
    return unsigned.serialized;
  }

  async signMessage(message: string | Uint8Array): Promise<string> {
    return (await this.signDigest(hashMessage(message))).serialized;
  }

  async signTypedData(
    domain: TypedDataDomain,
    types: Record<string, TypedDataField[]>,
    value: Record<string, unknown>,
  ): Promise<string> {
    const populated = await TypedDataEncoder.resolveNames(domain, types, value, async (name) => {
      const address = await this.provider?.resolveName(name);
      if (!address) throw new Error(`cannot resolve the name ${name}`);
      return address;
    });
    return (await this.signDigest(TypedDataEncoder.hash(populated.domain, types, populated.value)))
      .serialized;
  }
}

/**
 * A token's ECDSA answer (r || s, 64 bytes) as an Ethereum signature of `digest` by `address`:
 * s in the lower half of the group order (EIP-2: the other half is refused by the chain), and v
 * (27 or 28) the one whose recovered key is `address`'s.
 */
export function ethereumSignature(rs: Uint8Array, digest: string, address: string): Signature {
  if (rs.length !== 64)
    throw new Error(`the token answered a ${rs.length}-byte ECDSA signature, expected r || s (64)`);
  const bytes = Buffer.from(rs);
  const r = `0x${bytes.subarray(0, 32).toString('hex')}`;
  let s = BigInt(`0x${bytes.subarray(32).toString('hex')}`);
  if (s > SECP256K1_N / 2n) s = SECP256K1_N - s;
  const sHex = zeroPadValue(toBeHex(s), 32);
  for (const v of [27, 28] as const) {
    const signature = Signature.from({ r, s: sHex, v });
    if (recoverAddress(digest, signature) === address) return signature;
  }
  throw new Error('the token signature recovers to no key of this signer (wrong key or digest)');
}
