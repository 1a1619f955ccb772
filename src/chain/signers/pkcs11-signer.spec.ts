/**
 * The PKCS#11 signer against SoftHSM2 (Debian's softhsm2) with a secp256k1 key the token
 * generated, non-extractable: every signature it makes is checked by ethers (the library the rest
 * of the service signs and verifies with), and the private key cannot be read out of the token.
 */
import {
  parseEther,
  SigningKey,
  Transaction,
  verifyMessage,
  verifyTypedData,
  Wallet,
  keccak256,
  toUtf8Bytes,
} from 'ethers';
import type * as Pkcs11js from 'pkcs11js';
import { createSoftHsmToken, SoftHsmToken } from '../../../test/helpers/softhsm';
import { ethereumSignature, Pkcs11Signer } from './pkcs11-signer';
import { Pkcs11SettingError, Pkcs11Token } from './pkcs11-token';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('Pkcs11Signer (SoftHSM2)', () => {
  let hsm: SoftHsmToken;
  let signer: Pkcs11Signer;
  let settings: { module: string; tokenLabel: string; pin: string; keyLabel: string };

  beforeAll(async () => {
    hsm = createSoftHsmToken('signer-spec');
    const { PKCS11_MODULE, PKCS11_TOKEN_LABEL, PKCS11_PIN } = hsm.env;
    settings = {
      module: PKCS11_MODULE,
      tokenLabel: PKCS11_TOKEN_LABEL,
      pin: PKCS11_PIN,
      keyLabel: 'attester',
    };
    const token = Pkcs11Token.open(settings);
    try {
      await token.generateKeyPair('attester');
    } finally {
      token.release();
    }
    signer = Pkcs11Signer.open(settings);
  });
  afterAll(() => {
    signer?.close();
    hsm?.remove();
  });

  it('keeps the key in the token: sensitive, not extractable, its value unreadable', () => {
    const token = Pkcs11Token.open(settings);
    try {
      expect(token.keyProtection('attester')).toEqual({ sensitive: true, extractable: false });
    } finally {
      token.release();
    }
    // The raw binding, as an attacker with the PIN would try it: CKA_VALUE is refused.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pkcs11 = require('pkcs11js') as typeof Pkcs11js;
    const lib = new pkcs11.PKCS11();
    lib.load(settings.module);
    try {
      lib.C_Initialize();
    } catch (error) {
      if (!/ALREADY_INITIALIZED/.test((error as Error).message)) throw error;
    }
    const slot = lib
      .C_GetSlotList(true)
      .find((s) => lib.C_GetTokenInfo(s).label.trim() === settings.tokenLabel)!;
    const session = lib.C_OpenSession(slot, pkcs11.CKF_SERIAL_SESSION);
    try {
      lib.C_FindObjectsInit(session, [
        { type: pkcs11.CKA_CLASS, value: pkcs11.CKO_PRIVATE_KEY },
        { type: pkcs11.CKA_LABEL, value: 'attester' },
      ]);
      const key = lib.C_FindObjects(session);
      lib.C_FindObjectsFinal(session);
      // Private objects show once the application is logged in (the signer's login, above).
      expect(key).not.toBeNull();
      expect(() => lib.C_GetAttributeValue(session, key!, [{ type: pkcs11.CKA_VALUE }])).toThrow(
        /CKR_ATTRIBUTE_SENSITIVE/,
      );
    } finally {
      lib.C_CloseSession(session);
    }
  });

  it('signs messages, typed data and transactions that ethers verifies as its address', async () => {
    const message = 'compliance session for 0xabc';
    expect(verifyMessage(message, await signer.signMessage(message))).toBe(signer.address);
    const domain = { name: 'TradeAuthorization', version: '1', chainId: 84532 };
    const types = {
      Trade: [
        { name: 'wallet', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
    };
    const value = { wallet: signer.address, amount: 10n ** 18n };
    const typed = await signer.signTypedData(domain, types, value);
    expect(verifyTypedData(domain, types, value, typed)).toBe(signer.address);
    const raw = await signer.signTransaction({
      type: 2,
      chainId: 84532,
      nonce: 7,
      to: '0x000000000000000000000000000000000000dEaD',
      value: parseEther('0.01'),
      gasLimit: 21_000,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
      from: signer.address,
    });
    const tx = Transaction.from(raw);
    expect(tx.from).toBe(signer.address);
    expect(tx.nonce).toBe(7);
  });

  it('answers low-s signatures only (EIP-2), whatever half the token picked', async () => {
    for (let i = 0; i < 16; i++) {
      const digest = keccak256(toUtf8Bytes(`digest ${i}`));
      const signature = await signer.signDigest(digest);
      expect(BigInt(signature.s)).toBeLessThanOrEqual(N / 2n);
    }
  });

  it('refuses a transaction from another address', async () => {
    await expect(
      signer.signTransaction({ to: signer.address, from: Wallet.createRandom().address }),
    ).rejects.toThrow(/from address mismatch/);
  });

  it('names the setting that does not lead to a key', () => {
    expect(() => Pkcs11Signer.open({ ...settings, keyLabel: 'nobody' })).toThrow(
      new Pkcs11SettingError(
        'PKCS11_KEY_LABEL',
        `no private key labelled "nobody" on token "${settings.tokenLabel}"`,
      ),
    );
    expect(() => Pkcs11Signer.open({ ...settings, tokenLabel: 'absent' })).toThrow(
      /^PKCS11_TOKEN_LABEL: no token labelled "absent"/,
    );
    expect(() => Pkcs11Signer.open({ ...settings, module: '/nonexistent/lib.so' })).toThrow(
      /^PKCS11_MODULE: no library at \/nonexistent\/lib.so/,
    );
  });
});

describe('ethereumSignature (the token answers r || s only)', () => {
  const key = new SigningKey(`0x${'42'.repeat(32)}`);
  const address = new Wallet(key).address;
  const digest = keccak256(toUtf8Bytes('hello'));
  const reference = key.sign(digest);
  const rs = (s: bigint) =>
    Buffer.concat([
      Buffer.from(reference.r.slice(2), 'hex'),
      Buffer.from(s.toString(16).padStart(64, '0'), 'hex'),
    ]);

  it('finds v as ethers does', () => {
    expect(ethereumSignature(rs(BigInt(reference.s)), digest, address).serialized).toBe(
      reference.serialized,
    );
  });

  it('normalises a high s (n - s) to the same signature ethers makes', () => {
    const high = N - BigInt(reference.s);
    expect(high).toBeGreaterThan(N / 2n);
    expect(ethereumSignature(rs(high), digest, address).serialized).toBe(reference.serialized);
  });

  it('refuses an answer that is not 64 bytes, or not of this key', () => {
    expect(() => ethereumSignature(Buffer.alloc(70), digest, address)).toThrow(/70-byte/);
    expect(() =>
      ethereumSignature(rs(BigInt(reference.s)), digest, Wallet.createRandom().address),
    ).toThrow(/recovers to no key/);
  });
});
