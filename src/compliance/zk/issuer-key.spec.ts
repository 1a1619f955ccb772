import { issuerPublicKeyOf } from './credential-issuer';
import { DEVNET_ISSUER_PRIVATE_KEY, DEVNET_ISSUER_PUBLIC_KEY } from './devnet-issuer';
import { walletToFieldElement } from './field';
import { formatIssuerPublicKey, parseIssuerPublicKey } from './issuer-key';

describe('issuer key', () => {
  it('the pinned devnet public key is derived from the devnet private key', async () => {
    expect(await issuerPublicKeyOf(DEVNET_ISSUER_PRIVATE_KEY)).toEqual(DEVNET_ISSUER_PUBLIC_KEY);
  }, 30_000);

  it('parses "<x>,<y>" and round-trips', () => {
    const text = formatIssuerPublicKey(DEVNET_ISSUER_PUBLIC_KEY);
    expect(parseIssuerPublicKey(text)).toEqual(DEVNET_ISSUER_PUBLIC_KEY);
    expect(
      parseIssuerPublicKey(` ${DEVNET_ISSUER_PUBLIC_KEY.x} , ${DEVNET_ISSUER_PUBLIC_KEY.y} `),
    ).toEqual(DEVNET_ISSUER_PUBLIC_KEY);
  });

  it.each([
    ['empty', ''],
    ['one coordinate', DEVNET_ISSUER_PUBLIC_KEY.x],
    ['three coordinates', `${DEVNET_ISSUER_PUBLIC_KEY.x},${DEVNET_ISSUER_PUBLIC_KEY.y},1`],
    ['hex', '0x1,0x2'],
    [
      'not on the curve',
      `${DEVNET_ISSUER_PUBLIC_KEY.x},${BigInt(DEVNET_ISSUER_PUBLIC_KEY.y) + 1n}`,
    ],
    ['identity', '0,1'],
  ])('refuses %s', (_name, value) => {
    expect(() => parseIssuerPublicKey(value)).toThrow(/issuer public key/);
  });
});

describe('walletToFieldElement', () => {
  it('maps an address to its integer value, case-insensitively', () => {
    const a = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    expect(walletToFieldElement(a)).toBe(BigInt(a).toString());
    expect(walletToFieldElement(a.toLowerCase())).toBe(BigInt(a).toString());
  });

  it.each([
    undefined,
    null,
    1,
    '',
    '0x',
    '70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '0x' + 'g'.repeat(40),
  ])('returns null for %p', (value) => expect(walletToFieldElement(value)).toBeNull());
});
