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
import type { Call3, Call3Result } from '../../chain/encoding/multicall';
import {
  encodeStaticCall,
  encodeTupleWithEmptyBytes,
  readSignedWord,
  readWord,
  withCachedSelectors,
} from '../../chain/encoding/abi-words';

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

export type { Call3, Call3Result };

export interface WalletReads {
  /** Chain clock (Multicall3.getCurrentBlockTimestamp); PreflightService raises it to the server clock when that is later. */
  blockTimestamp: bigint;
  activeUntil: bigint;
  balances: { ETH: bigint; WETH: bigint; tUSDC: bigint };
  erc20ToPermit2: Record<TokenSymbol, bigint>;
  permit2: {
    swap: Record<TokenSymbol, Permit2Allowance>;
    liquidity: Record<TokenSymbol, Permit2Allowance>;
  };
  slot0?: { sqrtPriceX96: bigint; tick: number };
  /** Quote result: amountOut, or the revert data when the quoter failed. */
  quote?: { ok: true; amountOut: bigint } | { ok: false; revertData: string };
}

const MULTICALL_ETH_BALANCE = withCachedSelectors(
  new Interface(['function getEthBalance(address addr) view returns (uint256 balance)']),
);

interface Slot {
  call: Call3;
  decode(reads: WalletReads, result: Call3Result): void;
}

const SELECTOR = {
  blockTimestamp: MULTICALL3.getFunction('getCurrentBlockTimestamp')!.selector,
  activeUntil: COMPLIANCE_REGISTRY.getFunction('activeUntil')!.selector,
  ethBalance: MULTICALL_ETH_BALANCE.getFunction('getEthBalance')!.selector,
  balanceOf: ERC20.getFunction('balanceOf')!.selector,
  erc20Allowance: ERC20.getFunction('allowance')!.selector,
  permit2Allowance: PERMIT2.getFunction('allowance')!.selector,
  slot0: STATE_VIEW.getFunction('getSlot0')!.selector,
  quote: V4_QUOTER.getFunction('quoteExactInputSingle')!.selector,
};

/**
 * Every read but the quote has static arguments and static results: they are encoded and decoded
 * word by word (abi-words.ts), which keeps this per-build batch in the microseconds.
 */
function slots(t: BatchTarget): Slot[] {
  const c = t.contracts;
  const wallet = getAddress(t.wallet);
  const read = (target: string, selector: string, args: string[] = []): Call3 => ({
    target,
    allowFailure: false,
    callData: encodeStaticCall(selector, args),
  });
  const list: Slot[] = [
    {
      call: read(c.multicall3, SELECTOR.blockTimestamp),
      decode: (reads, r) => (reads.blockTimestamp = readWord(r.returnData, 0)),
    },
    {
      call: read(c.complianceRegistry, SELECTOR.activeUntil, [wallet]),
      decode: (reads, r) => (reads.activeUntil = readWord(r.returnData, 0)),
    },
    {
      call: read(c.multicall3, SELECTOR.ethBalance, [wallet]),
      decode: (reads, r) => (reads.balances.ETH = readWord(r.returnData, 0)),
    },
  ];
  for (const symbol of TOKEN_SYMBOLS) {
    const token = t.tokens[symbol];
    list.push(
      {
        call: read(token, SELECTOR.balanceOf, [wallet]),
        decode: (reads, r) => (reads.balances[symbol] = readWord(r.returnData, 0)),
      },
      {
        call: read(token, SELECTOR.erc20Allowance, [wallet, c.permit2]),
        decode: (reads, r) => (reads.erc20ToPermit2[symbol] = readWord(r.returnData, 0)),
      },
    );
    for (const [use, spender] of [
      ['swap', c.universalRouter],
      ['liquidity', c.positionManager],
    ] as const) {
      list.push({
        call: read(c.permit2, SELECTOR.permit2Allowance, [wallet, token, spender]),
        decode: (reads, r) => {
          reads.permit2[use][symbol] = {
            amount: readWord(r.returnData, 0),
            expiration: readWord(r.returnData, 1),
          };
        },
      });
    }
  }
  if (t.slot0) {
    list.push({
      call: read(c.stateView, SELECTOR.slot0, [poolIdOf(t.poolKey)]),
      decode: (reads, r) => {
        reads.slot0 = {
          sqrtPriceX96: readWord(r.returnData, 0),
          tick: Number(readSignedWord(r.returnData, 1)),
        };
      },
    });
  }
  if (t.quote) {
    list.push({
      // allowFailure: a quote that reverts (amount too large for the pool...) must not sink the
      // session/allowance reads; the service turns it into BUILD_FAILED with the reason.
      call: {
        target: c.v4Quoter,
        allowFailure: true,
        callData: encodeTupleWithEmptyBytes(SELECTOR.quote, [
          ...poolKeyTuple(t.poolKey),
          t.quote.zeroForOne,
          t.quote.exactAmount,
        ]),
      },
      decode: (reads, r) => {
        reads.quote = r.success
          ? { ok: true, amountOut: readWord(r.returnData, 0) }
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
      if (results.length !== list.length)
        throw new Error(`Multicall3 returned ${results.length} results for ${list.length} calls`);
      const zeroAllowance = () => ({
        WETH: { amount: 0n, expiration: 0n },
        tUSDC: { amount: 0n, expiration: 0n },
      });
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
