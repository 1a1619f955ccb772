/**
 * The pool reads an operation adds to the wallet-read batch (same eth_call, same block): the
 * pool's price (StateView.getSlot0) and a V4Quoter quote. Pure: each is a call and its decoding.
 * Static words are encoded and decoded by hand (abi-words.ts): these run on every build.
 */
import { selectorOf } from '../../chain/abi/selectors';
import { POSITION_MANAGER, STATE_VIEW, V4_QUOTER } from '../../chain/abi/uniswap-v4';
import {
  addressWord,
  encodeParts,
  encodeStaticCall,
  encodeTupleWithEmptyBytes,
  readSignedWord,
  readWord,
  sizeWord,
  uintWord,
} from '../../chain/encoding/abi-words';
import type { DecodedRevert } from '../../chain/encoding/revert-decoder';
import type { NetworkDefinition } from '../../chain/network/network.types';
import type { ChainRead } from '../chain/defi-chain.port';
import { PoolKey, poolIdOf, poolKeyTuple } from './pool-key';
import { pathKeysBody, SwapPath, TradeType } from './swap-calldata';

export interface Slot0 {
  sqrtPriceX96: bigint;
  tick: number;
}

export type QuoteOutcome = { ok: true; amountOut: bigint } | { ok: false; revert: DecodedRevert };
/** A V4Quoter answer: `amount` is the other side (out for exact input, in for exact output). */
export type Quote =
  { ok: true; amount: bigint; gasEstimate: bigint } | { ok: false; revert: DecodedRevert };

const SLOT0 = selectorOf(STATE_VIEW, 'getSlot0');
const QUOTE_SELECTORS: Record<TradeType, string> = {
  EXACT_INPUT: selectorOf(V4_QUOTER, 'quoteExactInputSingle'),
  EXACT_OUTPUT: selectorOf(V4_QUOTER, 'quoteExactOutputSingle'),
};
const PATH_QUOTE_SELECTORS: Record<TradeType, string> = {
  EXACT_INPUT: selectorOf(V4_QUOTER, 'quoteExactInput'),
  EXACT_OUTPUT: selectorOf(V4_QUOTER, 'quoteExactOutput'),
};
const NEXT_TOKEN_ID = selectorOf(POSITION_MANAGER, 'nextTokenId');

/** The pool's current price; a pool that is not initialized reads sqrtPriceX96 = 0. */
export function slot0Read(network: NetworkDefinition): ChainRead<Slot0> {
  return poolSlot0Read(network, network.pool);
}

/** slot0Read of any listed pool. */
export function poolSlot0Read(network: NetworkDefinition, pool: PoolKey): ChainRead<Slot0> {
  return {
    call: {
      target: network.contracts.stateView,
      allowFailure: false,
      callData: encodeStaticCall(SLOT0, [poolIdOf(pool)]),
    },
    decode: (outcome) => {
      if (!outcome.ok) throw new Error('StateView.getSlot0 reverted');
      return {
        sqrtPriceX96: readWord(outcome.returnData, 0),
        tick: Number(readSignedWord(outcome.returnData, 1)),
      };
    },
  };
}

/**
 * PositionManager.nextTokenId: the id the next mint gets, unless another mint lands first (a
 * prediction, read in the same batch as the price).
 */
export function nextTokenIdRead(network: NetworkDefinition): ChainRead<bigint> {
  return {
    call: {
      target: network.contracts.positionManager,
      allowFailure: false,
      callData: encodeStaticCall(NEXT_TOKEN_ID, []),
    },
    decode: (outcome) => {
      if (!outcome.ok) throw new Error('PositionManager.nextTokenId reverted');
      return readWord(outcome.returnData, 0);
    },
  };
}

/**
 * V4Quoter quote of either trade type. allowFailure: a quote that reverts (amount too large for
 * the pool...) must not sink the session/allowance reads; the operation turns it into BUILD_FAILED.
 */
export function quoteRead(
  network: NetworkDefinition,
  zeroForOne: boolean,
  tradeType: TradeType,
  exactAmount: bigint,
): ChainRead<Quote> {
  return poolQuoteRead(network, network.pool, zeroForOne, tradeType, exactAmount);
}

/** quoteRead of any listed pool (quoteExactInputSingle / quoteExactOutputSingle). */
export function poolQuoteRead(
  network: NetworkDefinition,
  pool: PoolKey,
  zeroForOne: boolean,
  tradeType: TradeType,
  exactAmount: bigint,
): ChainRead<Quote> {
  return {
    call: {
      target: network.contracts.v4Quoter,
      allowFailure: true,
      callData: encodeTupleWithEmptyBytes(QUOTE_SELECTORS[tradeType], [
        ...poolKeyTuple(pool),
        zeroForOne,
        exactAmount,
      ]),
    },
    decode: decodeQuote,
  };
}

/**
 * V4Quoter quoteExactInput / quoteExactOutput over a multi-hop path: QuoteExactParams
 * (exactCurrency, PathKey[] path, uint128 exactAmount), exactCurrency being the path's input
 * (exact input) or output (exact output), the path keys as the router takes them.
 */
export function pathQuoteRead(
  network: NetworkDefinition,
  path: SwapPath,
  tradeType: TradeType,
  exactAmount: bigint,
): ChainRead<Quote> {
  const exactOut = tradeType === 'EXACT_OUTPUT';
  const params =
    addressWord(exactOut ? path.currencyOut : path.currencyIn) +
    sizeWord(3 * 32) +
    uintWord(exactAmount, 128) +
    pathKeysBody(path, exactOut);
  return {
    call: {
      target: network.contracts.v4Quoter,
      allowFailure: true,
      callData: `${PATH_QUOTE_SELECTORS[tradeType]}${encodeParts([{ tail: params }])}`,
    },
    decode: decodeQuote,
  };
}

function decodeQuote(outcome: Parameters<ChainRead<Quote>['decode']>[0]): Quote {
  return outcome.ok
    ? {
        ok: true,
        amount: readWord(outcome.returnData, 0),
        gasEstimate: readWord(outcome.returnData, 1),
      }
    : outcome;
}

/** V4Quoter exact-input quote (amountOut only). */
export function quoteExactInputRead(
  network: NetworkDefinition,
  zeroForOne: boolean,
  exactAmount: bigint,
): ChainRead<QuoteOutcome> {
  const read = quoteRead(network, zeroForOne, 'EXACT_INPUT', exactAmount);
  return {
    call: read.call,
    decode: (outcome) => {
      const quote = read.decode(outcome);
      return quote.ok ? { ok: true, amountOut: quote.amount } : quote;
    },
  };
}
