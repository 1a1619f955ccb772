/**
 * Everything the preflight of a swap, a mint or GET preflight needs, as ONE list of Multicall3
 * aggregate3 calls (one eth_call): chain clock, session expiry, balances, ERC-20 -> Permit2 and
 * Permit2 -> router allowances, plus (per operation) the pool's slot0 and a V4Quoter quote.
 * Pure: building the calls and decoding their results needs no provider.
 */
import { getAddress, Interface } from 'ethers';
import { COMPLIANCE_REGISTRY, ERC20, MULTICALL3, PERMIT2, STATE_VIEW, V4_QUOTER } from './abis';
import type { Permit2Allowance } from './approvals';
import { PoolKey, poolIdOf, poolKeyTuple } from './pool-key';
import { withCachedSelectors } from '../../chain/encoding/abi-words';

export type TokenSymbol = 'WETH' | 'tUSDC';
export const TOKEN_SYMBOLS: readonly TokenSymbol[] = ['WETH', 'tUSDC'];

export interface BatchContracts {
  multicall3: string;
  complianceRegistry: string;
  permit2: string;
  universalRouter: string;
  positionManager: string;
  stateView: string;
  v4Quoter: string;
}

export interface BatchTarget {
  wallet: string;
  contracts: BatchContracts;
  tokens: Record<TokenSymbol, string>;
  poolKey: PoolKey;
  /** Add StateView.getSlot0 (liquidity needs the current price). */
  slot0?: boolean;
  /** Add a V4Quoter exact-input quote (swap). */
  quote?: { zeroForOne: boolean; exactAmount: bigint };
}

/** Multicall3.Call3: target, allowFailure, callData. */
export interface Call3 {
  target: string;
  allowFailure: boolean;
  callData: string;
}

export interface Call3Result {
  success: boolean;
  returnData: string;
}

export interface WalletReads {
  /** Chain clock (Multicall3.getCurrentBlockTimestamp); PreflightService raises it to the server clock when that is later. */
  blockTimestamp: bigint;
  activeUntil: bigint;
  balances: { ETH: bigint; WETH: bigint; tUSDC: bigint };
  erc20ToPermit2: Record<TokenSymbol, bigint>;
  permit2: { swap: Record<TokenSymbol, Permit2Allowance>; liquidity: Record<TokenSymbol, Permit2Allowance> };
  slot0?: { sqrtPriceX96: bigint; tick: number };
  /** Quote result: amountOut, or the revert data when the quoter failed. */
  quote?: { ok: true; amountOut: bigint } | { ok: false; revertData: string };
}

const MULTICALL_ETH_BALANCE = withCachedSelectors(new Interface(['function getEthBalance(address addr) view returns (uint256 balance)']));

interface Slot {
  call: Call3;
  decode(reads: WalletReads, result: Call3Result): void;
}

function slots(t: BatchTarget): Slot[] {
  const c = t.contracts;
  const wallet = getAddress(t.wallet);
  const one = (iface: Interface, fn: string, r: Call3Result) => iface.decodeFunctionResult(fn, r.returnData);
  const list: Slot[] = [
    {
      call: { target: c.multicall3, allowFailure: false, callData: MULTICALL3.encodeFunctionData('getCurrentBlockTimestamp') },
      decode: (reads, r) => (reads.blockTimestamp = one(MULTICALL3, 'getCurrentBlockTimestamp', r)[0] as bigint),
    },
    {
      call: { target: c.complianceRegistry, allowFailure: false, callData: COMPLIANCE_REGISTRY.encodeFunctionData('activeUntil', [wallet]) },
      decode: (reads, r) => (reads.activeUntil = one(COMPLIANCE_REGISTRY, 'activeUntil', r)[0] as bigint),
    },
    {
      call: { target: c.multicall3, allowFailure: false, callData: MULTICALL_ETH_BALANCE.encodeFunctionData('getEthBalance', [wallet]) },
      decode: (reads, r) => (reads.balances.ETH = one(MULTICALL_ETH_BALANCE, 'getEthBalance', r)[0] as bigint),
    },
  ];
  for (const symbol of TOKEN_SYMBOLS) {
    const token = t.tokens[symbol];
    list.push(
      {
        call: { target: token, allowFailure: false, callData: ERC20.encodeFunctionData('balanceOf', [wallet]) },
        decode: (reads, r) => (reads.balances[symbol] = one(ERC20, 'balanceOf', r)[0] as bigint),
      },
      {
        call: { target: token, allowFailure: false, callData: ERC20.encodeFunctionData('allowance', [wallet, c.permit2]) },
        decode: (reads, r) => (reads.erc20ToPermit2[symbol] = one(ERC20, 'allowance', r)[0] as bigint),
      },
    );
    for (const [use, spender] of [['swap', c.universalRouter], ['liquidity', c.positionManager]] as const) {
      list.push({
        call: { target: c.permit2, allowFailure: false, callData: PERMIT2.encodeFunctionData('allowance', [wallet, token, spender]) },
        decode: (reads, r) => {
          const [amount, expiration] = one(PERMIT2, 'allowance', r) as unknown as [bigint, bigint];
          reads.permit2[use][symbol] = { amount, expiration };
        },
      });
    }
  }
  if (t.slot0) {
    list.push({
      call: { target: c.stateView, allowFailure: false, callData: STATE_VIEW.encodeFunctionData('getSlot0', [poolIdOf(t.poolKey)]) },
      decode: (reads, r) => {
        const [sqrtPriceX96, tick] = one(STATE_VIEW, 'getSlot0', r) as unknown as [bigint, bigint];
        reads.slot0 = { sqrtPriceX96, tick: Number(tick) };
      },
    });
  }
  if (t.quote) {
    const params = [poolKeyTuple(t.poolKey), t.quote.zeroForOne, t.quote.exactAmount, '0x'];
    list.push({
      // allowFailure: a quote that reverts (amount too large for the pool...) must not sink the
      // session/allowance reads; the service turns it into BUILD_FAILED with the reason.
      call: { target: c.v4Quoter, allowFailure: true, callData: V4_QUOTER.encodeFunctionData('quoteExactInputSingle', [params]) },
      decode: (reads, r) => {
        reads.quote = r.success
          ? { ok: true, amountOut: one(V4_QUOTER, 'quoteExactInputSingle', r)[0] as bigint }
          : { ok: false, revertData: r.returnData };
      },
    });
  }
  return list;
}

export interface PreflightBatch {
  calls: Call3[];
  decode(results: Call3Result[]): WalletReads;
}

export function buildPreflightBatch(target: BatchTarget): PreflightBatch {
  const list = slots(target);
  return {
    calls: list.map((s) => s.call),
    decode(results) {
      if (results.length !== list.length) throw new Error(`Multicall3 returned ${results.length} results for ${list.length} calls`);
      const zeroAllowance = () => ({ WETH: { amount: 0n, expiration: 0n }, tUSDC: { amount: 0n, expiration: 0n } });
      const reads: WalletReads = {
        blockTimestamp: 0n,
        activeUntil: 0n,
        balances: { ETH: 0n, WETH: 0n, tUSDC: 0n },
        erc20ToPermit2: { WETH: 0n, tUSDC: 0n },
        permit2: { swap: zeroAllowance(), liquidity: zeroAllowance() },
      };
      list.forEach((slot, i) => slot.decode(reads, results[i]));
      return reads;
    },
  };
}
