/**
 * The reads of one position riding in a Multicall3 batch (pure: each is a call and its decoding):
 * PositionManager ownerOf / getPoolAndPositionInfo / getPositionLiquidity, and for uncollected
 * fees StateView.getPositionInfo + getFeeGrowthInside (v4-periphery src/lens/StateView.sol).
 */
import { selectorOf } from '../../chain/abi/selectors';
import { POSITION_MANAGER, STATE_VIEW } from '../../chain/abi/uniswap-v4';
import { encodeStaticCall, readSignedWord, readWord } from '../../chain/encoding/abi-words';
import type { NetworkDefinition } from '../../chain/network/network.types';
import type { ChainRead, ChainReads, DecodedReads } from '../chain/defi-chain.port';
import { PoolKey, poolIdOf } from '../encoding/pool-key';
import { getAddress } from 'ethers';

const SELECTOR = {
  ownerOf: selectorOf(POSITION_MANAGER, 'ownerOf'),
  info: selectorOf(POSITION_MANAGER, 'getPoolAndPositionInfo'),
  liquidity: selectorOf(POSITION_MANAGER, 'getPositionLiquidity'),
  positionInfo: STATE_VIEW.getFunction('getPositionInfo(bytes32,address,int24,int24,bytes32)')!
    .selector,
  feeGrowthInside: selectorOf(STATE_VIEW, 'getFeeGrowthInside'),
};

const Q128 = 1n << 128n;
const TICK_LOWER_OFFSET = 8n;
const TICK_UPPER_OFFSET = 32n;

/** A PositionManager position as read on chain; `owner` null: never minted or burned. */
export interface PositionRecord {
  tokenId: bigint;
  owner: string | null;
  /** null: no position info (unknown tokenId). */
  poolKey: PoolKey | null;
  tickLower: number;
  tickUpper: number;
  liquidity: bigint;
}

interface PoolAndInfo {
  poolKey: PoolKey | null;
  tickLower: number;
  tickUpper: number;
}

/** v4-periphery PositionInfoLibrary: ... | 24 bits tickUpper | 24 bits tickLower | 8 bits hasSubscriber. */
export function unpackTicks(info: bigint): { tickLower: number; tickUpper: number } {
  const int24 = (shift: bigint) => Number(BigInt.asIntN(24, info >> shift));
  return { tickLower: int24(TICK_LOWER_OFFSET), tickUpper: int24(TICK_UPPER_OFFSET) };
}

function read<T>(target: string, callData: string, decode: (data: string) => T, fallback: T) {
  return {
    call: { target, allowFailure: true, callData },
    decode: (outcome) => (outcome.ok ? decode(outcome.returnData) : fallback),
  } satisfies ChainRead<T>;
}

/** The three PositionManager reads of `tokenId`. */
export function positionReads(network: NetworkDefinition, tokenId: bigint) {
  const pm = network.contracts.positionManager;
  return {
    owner: read<string | null>(
      pm,
      encodeStaticCall(SELECTOR.ownerOf, [tokenId]),
      (data) => addressWord(data, 0),
      null, // solmate ERC721 reverts NOT_MINTED: burned or never minted
    ),
    info: read<PoolAndInfo>(pm, encodeStaticCall(SELECTOR.info, [tokenId]), decodePoolAndInfo, {
      poolKey: null,
      tickLower: 0,
      tickUpper: 0,
    }),
    liquidity: read<bigint>(
      pm,
      encodeStaticCall(SELECTOR.liquidity, [tokenId]),
      (data) => readWord(data, 0),
      0n,
    ),
  };
}

export type PositionReads = ReturnType<typeof positionReads>;

const addressWord = (data: string, i: number) =>
  getAddress(`0x${readWord(data, i).toString(16).padStart(40, '0')}`);

function decodePoolAndInfo(data: string): PoolAndInfo {
  const address = (i: number) => addressWord(data, i);
  const tickSpacing = Number(readSignedWord(data, 3));
  const ticks = unpackTicks(readWord(data, 5));
  // An unknown tokenId maps to the empty key (tickSpacing 0).
  if (tickSpacing === 0) return { poolKey: null, ...ticks };
  return {
    poolKey: {
      currency0: address(0),
      currency1: address(1),
      fee: Number(readWord(data, 2)),
      tickSpacing,
      hooks: address(4),
    },
    ...ticks,
  };
}

/** Assembles the position from its decoded reads. */
export function positionOf(tokenId: bigint, reads: DecodedReads<PositionReads>): PositionRecord {
  return {
    tokenId,
    owner: reads.owner,
    poolKey: reads.info.poolKey,
    tickLower: reads.info.tickLower,
    tickUpper: reads.info.tickUpper,
    liquidity: reads.liquidity,
  };
}

/** Is the position in the network's pool (same PoolId)? */
export function inPool(network: NetworkDefinition, position: PositionRecord): boolean {
  return position.poolKey !== null && poolIdOf(position.poolKey) === poolIdOf(network.pool);
}

export interface FeeGrowth {
  /** StateView.getPositionInfo: fee growth inside at the last modification. */
  last0: bigint;
  last1: bigint;
  /** StateView.getFeeGrowthInside: fee growth inside now. */
  inside0: bigint;
  inside1: bigint;
}

/** The two StateView reads that price a position's uncollected fees. */
export function feeReads(
  network: NetworkDefinition,
  position: Pick<PositionRecord, 'tokenId' | 'tickLower' | 'tickUpper'>,
) {
  const poolId = poolIdOf(network.pool);
  const { tickLower, tickUpper } = position;
  const sv = network.contracts.stateView;
  const pair = (data: string, from: number): [bigint, bigint] => [
    readWord(data, from),
    readWord(data, from + 1),
  ];
  const none: [bigint, bigint] = [0n, 0n];
  return {
    last: read(
      sv,
      encodeStaticCall(SELECTOR.positionInfo, [
        poolId,
        network.contracts.positionManager,
        BigInt(tickLower),
        BigInt(tickUpper),
        position.tokenId, // PositionManager salts each position with bytes32(tokenId)
      ]),
      (data) => pair(data, 1), // (liquidity, feeGrowthInside0LastX128, feeGrowthInside1LastX128)
      none,
    ),
    inside: read(
      sv,
      encodeStaticCall(SELECTOR.feeGrowthInside, [poolId, BigInt(tickLower), BigInt(tickUpper)]),
      (data) => pair(data, 0),
      none,
    ),
  };
}

export type FeeReads = ReturnType<typeof feeReads>;

export function feeGrowthOf(reads: DecodedReads<FeeReads>): FeeGrowth {
  const [last0, last1] = reads.last;
  const [inside0, inside1] = reads.inside;
  return { last0, last1, inside0, inside1 };
}

/**
 * Fees owed to a position, as v4-core Position.update computes them:
 * liquidity * (feeGrowthInside - feeGrowthInsideLast) / 2^128, the subtraction modulo 2^256.
 */
export function uncollectedFees(
  liquidity: bigint,
  growth: FeeGrowth,
): { amount0: bigint; amount1: bigint } {
  const owed = (inside: bigint, last: bigint) =>
    (BigInt.asUintN(256, inside - last) * liquidity) / Q128;
  return {
    amount0: owed(growth.inside0, growth.last0),
    amount1: owed(growth.inside1, growth.last1),
  };
}

/** Many positions' reads in one batch: each read's key prefixed with its group (e.g. the tokenId). */
export function grouped<R extends ChainReads>(group: string, reads: R): ChainReads {
  const out: ChainReads = {};
  for (const [key, value] of Object.entries(reads)) out[`${group}:${key}`] = value;
  return out;
}

/** One group's decoded reads out of a batch built with grouped(). */
export function ungrouped<R extends ChainReads>(
  group: string,
  decoded: DecodedReads<ChainReads>,
): DecodedReads<R> {
  const out: Record<string, unknown> = {};
  const prefix = `${group}:`;
  for (const [key, value] of Object.entries(decoded))
    if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out as DecodedReads<R>;
}
