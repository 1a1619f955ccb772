import { AbiCoder, Interface } from 'ethers';
import devnetFile from '../../config/networks/devnet.json';
import { PERMIT2 } from '../abi/permit2';
import { NetworkFile, resolveNetworkFile } from '../network/network-definition';
import { decodeAggregate3, encodeAggregate3 } from './multicall';
import {
  decodeWalletState,
  effectiveAllowance,
  isSanctionedAnswer,
  permit2Usable,
  walletReadCallCount,
  walletTokenReadCallCount,
  walletReadCalls,
} from './wallet-reads';
import { SANCTIONS_LIST } from '../abi/sanctions-list';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const PAIR = ['WETH', 'tUSDC'];
const WALLET_READ_CALL_COUNT = walletTokenReadCallCount(PAIR.length);
const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const word = (v: bigint) => AbiCoder.defaultAbiCoder().encode(['uint256'], [v]);
const p2 = (amount: bigint, expiration: number, nonce = 0) =>
  PERMIT2.encodeFunctionResult('allowance', [amount, expiration, nonce]);

describe('wallet reads', () => {
  it('puts every read of the wallet in one aggregate3 batch, encoded as ethers would', () => {
    const calls = walletReadCalls(network, wallet, PAIR);
    expect(calls).toHaveLength(walletReadCallCount(network, PAIR));
    // Without a list, every token of the network is read.
    expect(walletReadCalls(network, wallet)).toHaveLength(
      walletTokenReadCallCount(Object.keys(network.tokens).length) + 1,
    );
    expect(calls.slice(0, WALLET_READ_CALL_COUNT).every((c) => !c.allowFailure)).toBe(true);
    const decoded = new Interface([
      'function aggregate3((address,bool,bytes)[])',
    ]).decodeFunctionData('aggregate3', encodeAggregate3(calls));
    expect(decoded[0]).toHaveLength(WALLET_READ_CALL_COUNT + 1);
    // The sanctions screen rides last, allowed to fail (the answer then reads as sanctioned).
    expect(calls[WALLET_READ_CALL_COUNT]).toEqual({
      target: network.compliance.sanctionsOracle,
      allowFailure: true,
      callData: SANCTIONS_LIST.encodeFunctionData('isSanctioned', [wallet]),
    });
    const noOracle = {
      ...network,
      compliance: { ...network.compliance, sanctionsOracle: null },
    };
    expect(walletReadCalls(noOracle, wallet, PAIR)).toHaveLength(WALLET_READ_CALL_COUNT);
    const permit2Call = calls.find((c) => c.target === network.contracts.permit2)!;
    expect(permit2Call.callData).toBe(
      PERMIT2.encodeFunctionData('allowance', [
        wallet,
        network.tokens.WETH.address,
        network.contracts.universalRouter,
      ]),
    );
  });

  it("computes the effective Permit2 allowance at Permit2's exact expiry boundary", () => {
    const grant = (expiration: number) => ({ amount: 5n, expiration, nonce: 0 });
    expect(effectiveAllowance(10n, grant(100), 50)).toBe(5n);
    expect(effectiveAllowance(3n, grant(100), 50)).toBe(3n);
    // Permit2 reverts AllowanceExpired only when block.timestamp > expiration.
    expect(effectiveAllowance(10n, grant(100), 100)).toBe(5n);
    expect(permit2Usable(grant(100), 100)).toBe(5n);
    expect(effectiveAllowance(10n, grant(99), 100)).toBe(0n);
    expect(effectiveAllowance(10n, grant(0), 100)).toBe(0n);
  });

  it('decodes a batch into session, balances and allowances (chain clock); extra results are left to the caller', () => {
    const now = 1_700_000_000;
    const results = [
      word(BigInt(now)),
      word(42n),
      word(5n * 10n ** 18n),
      word(BigInt(now + 60)), // session
      word(7n), // WETH balance
      word(100n), // WETH -> Permit2
      p2(50n, now + 10, 3), // WETH -> UniversalRouter
      p2(1n, now - 1), // WETH -> PositionManager (expired)
      word(8n), // tUSDC balance
      word(0n), // tUSDC -> Permit2
      p2(50n, now), // tUSDC -> UniversalRouter (expires this very second: still valid)
      p2(0n, 0), // tUSDC -> PositionManager
    ].map((returnData) => ({ success: true, returnData }));
    const state = decodeWalletState(results, PAIR);
    expect(state).toMatchObject({
      blockTimestamp: now,
      blockNumber: 42,
      session: { active: true, activeUntil: now + 60 },
      balances: { ETH: 5n * 10n ** 18n, WETH: 7n, tUSDC: 8n },
      erc20ToPermit2: { WETH: 100n, tUSDC: 0n },
      effective: { swap: { WETH: 50n, tUSDC: 0n }, liquidity: { WETH: 0n, tUSDC: 0n } },
    });
    expect(state.permit2.swap.WETH).toEqual({ amount: 50n, expiration: now + 10, nonce: 3 });
    expect(state.permit2.swap.tUSDC).toEqual({ amount: 50n, expiration: now, nonce: 0 });
    expect(
      decodeWalletState(
        results.map((r, i) => (i === 3 ? { ...r, returnData: word(0n) } : r)),
        PAIR,
      ).session,
    ).toEqual({ active: false, activeUntil: null });
    // ComplianceRegistry.isActive is block.timestamp < activeUntil: the last second is not active.
    expect(
      decodeWalletState(
        results.map((r, i) => (i === 3 ? { ...r, returnData: word(BigInt(now)) } : r)),
        PAIR,
      ).session.active,
    ).toBe(false);
    expect(() => decodeWalletState(results.slice(1), PAIR)).toThrow(/incomplete/);
    expect(state.sanctioned).toBe(false);
    // Screened: the oracle's answer follows; only a well-formed false clears the wallet.
    const screened = (answer: { success: boolean; returnData: string }) =>
      decodeWalletState([...results, answer], PAIR, true).sanctioned;
    expect(screened({ success: true, returnData: word(0n) })).toBe(false);
    expect(screened({ success: true, returnData: word(1n) })).toBe(true);
    expect(screened({ success: false, returnData: '0x' })).toBe(true);
    expect(screened({ success: true, returnData: '0x' })).toBe(true);
    expect(() => decodeWalletState(results, PAIR, true)).toThrow(/incomplete/);
    expect(isSanctionedAnswer({ success: true, returnData: word(2n) })).toBe(true);
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
