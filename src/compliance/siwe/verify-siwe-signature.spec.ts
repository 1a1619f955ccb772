import { hashMessage, Wallet } from 'ethers';

import { buildSiweMessage, newSiweNonce } from './build-siwe-message';
import { verifySiweSignature, type SiweExpectations } from './verify-siwe-signature';

// Hardhat / anvil development accounts 1 and 2 (public test keys).
const signer = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const stranger = new Wallet('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

const NOW = new Date('2026-01-15T12:00:00.000Z');
const expectations: SiweExpectations = {
  expectedDomain: 'localhost:3000',
  expectedChainId: 84532,
  expectedAddress: signer.address,
  now: NOW,
};

function message(overrides: Partial<Parameters<typeof buildSiweMessage>[0]> = {}) {
  return buildSiweMessage({
    domain: 'localhost:3000',
    address: signer.address,
    uri: 'http://localhost:3000/onboarding/register',
    chainId: 84532,
    nonce: 'a1b2c3d4e5f60718',
    issuedAt: new Date(NOW.getTime() - 30_000),
    statement: 'Bind this wallet to my institution account.',
    ...overrides,
  });
}

describe('verifySiweSignature', () => {
  it('accepts a message signed by the wallet and returns its nonce and address', async () => {
    const text = message();
    const result = verifySiweSignature(
      { message: text, signature: await signer.signMessage(text) },
      expectations,
    );
    expect(result).toEqual({
      ok: true,
      nonce: 'a1b2c3d4e5f60718',
      address: signer.address,
      issuedAt: '2026-01-15T11:59:30.000Z',
    });
  });

  it('builds a standard ERC-4361 text (checksummed address, version 1)', () => {
    const text = message({ address: signer.address.toLowerCase() });
    expect(text).toBe(
      [
        'localhost:3000 wants you to sign in with your Ethereum account:',
        signer.address,
        '',
        'Bind this wallet to my institution account.',
        '',
        'URI: http://localhost:3000/onboarding/register',
        'Version: 1',
        'Chain ID: 84532',
        'Nonce: a1b2c3d4e5f60718',
        'Issued At: 2026-01-15T11:59:30.000Z',
      ].join('\n'),
    );
    expect(newSiweNonce()).toMatch(/^[0-9a-f]{32}$/);
  });

  it('accepts the expected address in any case', async () => {
    const text = message();
    const result = verifySiweSignature(
      { message: text, signature: await signer.signMessage(text) },
      { ...expectations, expectedAddress: signer.address.toLowerCase() },
    );
    expect(result.ok).toBe(true);
  });

  it('refuses another chainId', async () => {
    const text = message({ chainId: 1 });
    expect(
      verifySiweSignature(
        { message: text, signature: await signer.signMessage(text) },
        expectations,
      ),
    ).toMatchObject({
      ok: false,
      reason: 'SIWE_CHAIN',
    });
  });

  it('refuses another domain', async () => {
    const text = message({ domain: 'evil.example.com' });
    expect(
      verifySiweSignature(
        { message: text, signature: await signer.signMessage(text) },
        expectations,
      ),
    ).toMatchObject({
      ok: false,
      reason: 'SIWE_DOMAIN',
    });
  });

  it('refuses a signature by someone else than the message address', async () => {
    const text = message();
    expect(
      verifySiweSignature(
        { message: text, signature: await stranger.signMessage(text) },
        expectations,
      ),
    ).toMatchObject({
      ok: false,
      reason: 'SIWE_SIGNER',
    });
  });

  it('refuses a valid message of another wallet than the one being bound', async () => {
    const text = message({ address: stranger.address });
    expect(
      verifySiweSignature(
        { message: text, signature: await stranger.signMessage(text) },
        expectations,
      ),
    ).toMatchObject({
      ok: false,
      reason: 'SIWE_SIGNER',
      message: 'message is signed for a different wallet than walletAddress',
    });
  });

  it('refuses a message whose Expiration Time has passed', async () => {
    const text = message({ expirationTime: new Date(NOW.getTime() - 1) });
    expect(
      verifySiweSignature(
        { message: text, signature: await signer.signMessage(text) },
        expectations,
      ),
    ).toMatchObject({
      ok: false,
      reason: 'SIWE_EXPIRED',
    });
  });

  it('refuses a message issued longer ago than maxAgeSeconds', async () => {
    const text = message({ issuedAt: new Date(NOW.getTime() - 601_000) });
    const signature = await signer.signMessage(text);
    expect(verifySiweSignature({ message: text, signature }, expectations)).toMatchObject({
      reason: 'SIWE_EXPIRED',
    });
    expect(
      verifySiweSignature({ message: text, signature }, { ...expectations, maxAgeSeconds: 3600 })
        .ok,
    ).toBe(true);
  });

  it('refuses a message issued in the future or not valid yet', async () => {
    for (const text of [
      message({ issuedAt: new Date(NOW.getTime() + 120_000) }),
      message({ notBefore: new Date(NOW.getTime() + 120_000) }),
    ]) {
      expect(
        verifySiweSignature(
          { message: text, signature: await signer.signMessage(text) },
          expectations,
        ),
      ).toMatchObject({
        ok: false,
        reason: 'SIWE_INVALID',
      });
    }
  });

  it('refuses a message edited after signing', async () => {
    const text = message();
    const signature = await signer.signMessage(text);
    const edited = text.replace('Nonce: a1b2c3d4e5f60718', 'Nonce: ffffffffffffffff');
    expect(verifySiweSignature({ message: edited, signature }, expectations)).toMatchObject({
      reason: 'SIWE_SIGNER',
    });
  });

  it.each<[string, unknown, unknown]>([
    ['no message', undefined, '0x' + '00'.repeat(65)],
    ['message not a string', { domain: 'localhost:3000' }, '0x' + '00'.repeat(65)],
    ['garbage message', 'hello world', '0x' + '00'.repeat(65)],
    ['oversized message', 'x'.repeat(10_000), '0x' + '00'.repeat(65)],
    ['no signature', 'VALID', undefined],
    ['short signature', 'VALID', '0x1234'],
    ['signature not hex', 'VALID', 'z'.repeat(132)],
    ['odd hex length', 'VALID', '0x' + '11'.repeat(65) + '1'],
    ['oversized signature', 'VALID', '0x' + '11'.repeat(2049)],
  ])('refuses garbage without throwing: %s', (_name, msg, signature) => {
    const result = verifySiweSignature(
      { message: msg === 'VALID' ? message() : msg, signature },
      expectations,
    );
    expect(result).toEqual({ ok: false, reason: 'SIWE_INVALID', message: expect.any(String) });
  });

  it.each<[string, string]>([
    ['zero signature', '0x' + '00'.repeat(65)],
    ['bad recovery byte', '0x' + '11'.repeat(64) + '05'],
    ["two owners' signatures (a Safe's)", '0x' + '11'.repeat(130)],
  ])(
    'leaves a well-formed message whose %s is no EOA signature of its wallet to the chain (ERC-1271)',
    (_name, signature) => {
      const text = message();
      const result = verifySiweSignature({ message: text, signature }, expectations);
      expect(result).toEqual({
        ok: false,
        reason: 'SIWE_SIGNER',
        message: expect.any(String),
        contractCheck: { address: signer.address, hash: hashMessage(text), signature },
      });
    },
  );

  it('asks no contract about a message for another wallet, or one refused before its signature', async () => {
    const other = message({ address: stranger.address });
    const expired = message({ expirationTime: new Date(NOW.getTime() - 1) });
    for (const text of [other, expired]) {
      const result = verifySiweSignature(
        { message: text, signature: '0x' + '11'.repeat(130) },
        expectations,
      );
      expect(result.ok).toBe(false);
      expect(result).not.toHaveProperty('contractCheck');
    }
  });

  it('does not throw on a null input', () => {
    expect(verifySiweSignature(null as never, expectations)).toMatchObject({
      ok: false,
      reason: 'SIWE_INVALID',
    });
  });
});
