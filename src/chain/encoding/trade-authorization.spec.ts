import { recoverAddress, TypedDataEncoder, Wallet } from 'ethers';
import { seededRandom } from '../../../test/helpers/seeded-random';
import {
  decodeAuthorizationHookData,
  domainSeparatorOf,
  encodeAuthorizationHookData,
  TRADE_AUTHORIZATION_TYPES,
  tradeAuthorizationDigest,
  tradeAuthorizationDomain,
  tradeAuthorizationTypedData,
  ZERO_POOL_ID,
} from './trade-authorization';

describe('trade authorization encoding (hook v3, issue 54)', () => {
  const domain = tradeAuthorizationDomain(84532, '0xfa9e22ef24b5c2e86dd1da6d13480c69a385ca80');

  it('hand-encodes the EIP-712 digest exactly as ethers TypedDataEncoder does, over random messages', () => {
    const r = seededRandom(0x7a0e);
    const separator = domainSeparatorOf(domain);
    expect(separator).toBe(TypedDataEncoder.hashDomain(domain));
    for (let i = 0; i < 200; i += 1) {
      const route = r.bool();
      const m = {
        trader: r.address(),
        poolId: `0x${r.bytes(32)}`,
        kind: r.int(2),
        zeroForOne: r.bool(),
        amount: r.bool() ? -r.uint(128) : r.uint(128),
        nonce: r.uint(64),
        deadline: r.uint(40),
        nextPoolId: route ? `0x${r.bytes(32)}` : ZERO_POOL_ID,
        nextAmountMax: route ? r.uint(128) : 0n,
      };
      expect(tradeAuthorizationDigest(separator, m)).toBe(
        TypedDataEncoder.hash(domain, TRADE_AUTHORIZATION_TYPES, m),
      );
    }
  });

  it('carries nonce, deadline, signature (128 bytes) and a route (192 bytes) that decode back and recover the signer', () => {
    const signer = Wallet.createRandom();
    const base = {
      trader: signer.address,
      poolId: `0x${'11'.repeat(32)}`,
      kind: 0,
      zeroForOne: true,
      amount: -5n,
      nonce: (123n << 24n) | 7n,
      deadline: 1_900_000_000n,
    };
    for (const [nextPoolId, nextAmountMax, bytes] of [
      [ZERO_POOL_ID, 0n, 128],
      [`0x${'22'.repeat(32)}`, 31_000_000n, 192],
    ] as const) {
      const m = { ...base, nextPoolId, nextAmountMax };
      const digest = tradeAuthorizationDigest(domainSeparatorOf(domain), m);
      const hookData = encodeAuthorizationHookData(m, signer.signingKey.sign(digest).serialized);
      expect((hookData.length - 2) / 2).toBe(bytes);
      const decoded = decodeAuthorizationHookData(hookData)!;
      expect(recoverAddress(digest, decoded.signature)).toBe(signer.address);
      expect(decoded).toMatchObject({
        nonce: m.nonce,
        deadline: m.deadline,
        nextPoolId,
        nextAmountMax,
      });
      const typed = tradeAuthorizationTypedData(domain, m);
      expect(TypedDataEncoder.hash(typed.domain, typed.types, typed.message)).toBe(digest);
    }
    expect(decodeAuthorizationHookData('0x01')).toBeNull();
    expect(decodeAuthorizationHookData(`0x${'00'.repeat(160)}`)).toBeNull();
  });
});
