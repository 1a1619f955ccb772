/**
 * The wallet snapshot the preflight needs (spec §7 rule 3: session, balances and allowances at
 * once), as Multicall3 calls and their decoding. Pure: no provider.
 *
 * Allowances go through Permit2 (design §4): effective allowance for a spender =
 * min(ERC-20 allowance token -> Permit2, Permit2 allowance owner -> spender if not expired).
 */
import { Interface } from 'ethers';
import type { NetworkDefinition } from '../network/network.types';
import { Call3, Call3Result, MULTICALL3 } from './multicall';
import { withCachedSelectors } from './abi-words';

export const ERC20_READS = withCachedSelectors(
  new Interface([
    'function balanceOf(address owner) view returns (uint256)',
    'function allowance(address owner, address spender) view returns (uint256)',
  ]),
);
export const PERMIT2_READS = withCachedSelectors(
  new Interface([
    'function allowance(address user, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)',
  ]),
);
export const REGISTRY_READS = withCachedSelectors(
  new Interface(['function activeUntil(address wallet) view returns (uint64)']),
);

export type TokenSymbol = 'WETH' | 'tUSDC';
export const TOKEN_SYMBOLS: readonly TokenSymbol[] = ['WETH', 'tUSDC'];
export type Spender = 'universalRouter' | 'positionManager';
export const SPENDERS: readonly Spender[] = ['universalRouter', 'positionManager'];

export interface Permit2Allowance {
  amount: bigint;
  /** Unix seconds; 0 never set. Permit2 treats an expiration in the past as no allowance. */
  expiration: number;
  nonce: number;
}

export interface WalletState {
  /** Chain time of the block the batch ran at: the clock the hook will judge the session by. */
  blockTimestamp: number;
  blockNumber: number;
  session: { active: boolean; activeUntil: number | null };
  balances: Record<'ETH' | TokenSymbol, bigint>;
  /** ERC-20 allowance token -> Permit2. */
  erc20ToPermit2: Record<TokenSymbol, bigint>;
  /** Permit2 allowance wallet -> spender, per token. */
  permit2: Record<Spender, Record<TokenSymbol, Permit2Allowance>>;
  /** What the spender can actually pull now: swap = UniversalRouter, liquidity = PositionManager. */
  effective: { swap: Record<TokenSymbol, bigint>; liquidity: Record<TokenSymbol, bigint> };
}

/** Number of calls walletStateCalls() puts first in the batch; extra calls follow. */
export const WALLET_STATE_CALL_COUNT = 3 + 1 + 2 + 2 + 4;

export function walletStateCalls(network: NetworkDefinition, wallet: string): Call3[] {
  const { contracts: c, tokens } = network;
  const call = (target: string, callData: string): Call3 => ({
    target,
    allowFailure: false,
    callData,
  });
  return [
    call(c.multicall3, MULTICALL3.encodeFunctionData('getCurrentBlockTimestamp')),
    call(c.multicall3, MULTICALL3.encodeFunctionData('getBlockNumber')),
    call(c.multicall3, MULTICALL3.encodeFunctionData('getEthBalance', [wallet])),
    call(c.complianceRegistry, REGISTRY_READS.encodeFunctionData('activeUntil', [wallet])),
    ...TOKEN_SYMBOLS.map((s) =>
      call(tokens[s].address, ERC20_READS.encodeFunctionData('balanceOf', [wallet])),
    ),
    ...TOKEN_SYMBOLS.map((s) =>
      call(tokens[s].address, ERC20_READS.encodeFunctionData('allowance', [wallet, c.permit2])),
    ),
    ...SPENDERS.flatMap((spender) =>
      TOKEN_SYMBOLS.map((s) =>
        call(
          c.permit2,
          PERMIT2_READS.encodeFunctionData('allowance', [wallet, tokens[s].address, c[spender]]),
        ),
      ),
    ),
  ];
}

export function effectiveAllowance(
  erc20ToPermit2: bigint,
  permit2: Permit2Allowance,
  now: number,
): bigint {
  // Permit2: `block.timestamp > expiration` reverts AllowanceExpired; expiration 0 was "now" at approval time.
  if (permit2.expiration < now) return 0n;
  return erc20ToPermit2 < permit2.amount ? erc20ToPermit2 : permit2.amount;
}

export function decodeWalletState(results: readonly Call3Result[]): WalletState {
  if (results.length < WALLET_STATE_CALL_COUNT) throw new Error('wallet state batch is incomplete');
  const uint = (i: number): bigint => BigInt(results[i].returnData);
  const blockTimestamp = Number(uint(0));
  const activeUntil = Number(uint(3));
  const perToken = <T>(offset: number, read: (i: number) => T): Record<TokenSymbol, T> => ({
    WETH: read(offset),
    tUSDC: read(offset + 1),
  });
  const permit2Read = (i: number): Permit2Allowance => {
    const [amount, expiration, nonce] = PERMIT2_READS.decodeFunctionResult(
      'allowance',
      results[i].returnData,
    );
    return { amount: amount as bigint, expiration: Number(expiration), nonce: Number(nonce) };
  };
  const erc20ToPermit2 = perToken(6, uint);
  const permit2 = {
    universalRouter: perToken(8, permit2Read),
    positionManager: perToken(10, permit2Read),
  };
  const effectiveFor = (spender: Spender) => ({
    WETH: effectiveAllowance(erc20ToPermit2.WETH, permit2[spender].WETH, blockTimestamp),
    tUSDC: effectiveAllowance(erc20ToPermit2.tUSDC, permit2[spender].tUSDC, blockTimestamp),
  });
  return {
    blockTimestamp,
    blockNumber: Number(uint(1)),
    // ComplianceRegistry.isActive: block.timestamp < activeUntil.
    session: {
      active: blockTimestamp < activeUntil,
      activeUntil: activeUntil === 0 ? null : activeUntil,
    },
    balances: { ETH: uint(2), ...perToken(4, uint) },
    erc20ToPermit2,
    permit2,
    effective: {
      swap: effectiveFor('universalRouter'),
      liquidity: effectiveFor('positionManager'),
    },
  };
}
