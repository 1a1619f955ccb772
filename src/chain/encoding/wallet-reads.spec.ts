import { AbiCoder, Interface } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { NetworkFile, resolveNetworkFile } from '../network/network-definition';
import { decodeAggregate3, encodeAggregate3 } from './multicall';
import {
  decodeWalletState,
  effectiveAllowance,
  PERMIT2_READS,
  WALLET_STATE_CALL_COUNT,
  walletStateCalls,
} from './wallet-reads';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const word = (v: bigint) => AbiCoder.defaultAbiCoder().encode(['uint256'], [v]);
const p2 = (amount: bigint, expiration: number) =>
  PERMIT2_READS.encodeFunctionResult('allowance', [amount, expiration, 0]);

describe('wallet reads', () => {
  it('puts every read of the wallet in one aggregate3 batch', () => {
    const calls = walletStateCalls(network, wallet);
    expect(calls).toHaveLength(WALLET_STATE_CALL_COUNT);
    expect(calls.every((c) => !c.allowFailure)).toBe(true);
    const decoded = new Interface([
      'function aggregate3((address,bool,bytes)[])',
    ]).decodeFunctionData('aggregate3', encodeAggregate3(calls));
    expect(decoded[0]).toHaveLength(WALLET_STATE_CALL_COUNT);
  });

  it('computes the effective Permit2 allowance: min of both legs, zero once expired', () => {
    expect(effectiveAllowance(10n, { amount: 5n, expiration: 100, nonce: 0 }, 50)).toBe(5n);
    expect(effectiveAllowance(3n, { amount: 5n, expiration: 100, nonce: 0 }, 50)).toBe(3n);
    expect(effectiveAllowance(10n, { amount: 5n, expiration: 100, nonce: 0 }, 100)).toBe(5n);
    expect(effectiveAllowance(10n, { amount: 5n, expiration: 99, nonce: 0 }, 100)).toBe(0n);
    expect(effectiveAllowance(10n, { amount: 5n, expiration: 0, nonce: 0 }, 100)).toBe(0n);
  });

  it('decodes a batch into session, balances and allowances; extra results are left to the caller', () => {
    const now = 1_700_000_000;
    const results = [
      word(BigInt(now)),
      word(42n),
      word(5n * 10n ** 18n),
      word(BigInt(now + 60)),
      word(7n),
      word(8n), // balances WETH, tUSDC
      word(100n),
      word(0n), // ERC20 -> Permit2
      p2(50n, now + 10),
      p2(50n, now + 10), // -> UniversalRouter
      p2(1n, now - 1),
      p2(0n, 0), // -> PositionManager
    ].map((returnData) => ({ success: true, returnData }));
    const state = decodeWalletState(results);
    expect(state).toMatchObject({
      blockTimestamp: now,
      blockNumber: 42,
      session: { active: true, activeUntil: now + 60 },
      balances: { ETH: 5n * 10n ** 18n, WETH: 7n, tUSDC: 8n },
      effective: { swap: { WETH: 50n, tUSDC: 0n }, liquidity: { WETH: 0n, tUSDC: 0n } },
    });
    expect(
      decodeWalletState(results.map((r, i) => (i === 3 ? { ...r, returnData: word(0n) } : r)))
        .session,
    ).toEqual({ active: false, activeUntil: null });
    expect(
      decodeWalletState(
        results.map((r, i) => (i === 3 ? { ...r, returnData: word(BigInt(now)) } : r)),
      ).session.active,
    ).toBe(false);
  });

  it('round-trips aggregate3 results', () => {
    const iface = new Interface([
      'function aggregate3((address,bool,bytes)[]) returns ((bool,bytes)[])',
    ]);
    const raw = iface.encodeFunctionResult('aggregate3', [
      [
        [true, '0x01'],
        [false, '0x'],
      ],
    ]);
    expect(decodeAggregate3(raw)).toEqual([
      { success: true, returnData: '0x01' },
      { success: false, returnData: '0x' },
    ]);
  });
});
