import JSBI from 'jsbi';
import { Token } from '@uniswap/sdk-core';
import { TickMath } from '@uniswap/v3-sdk';
import { Pool, Position } from '@uniswap/v4-sdk';
import { AbiCoder } from 'ethers';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { POSITION_MANAGER } from '../../chain/abi/uniswap-v4';
import { mintCalldataByPlanner, withPermitBatchByLibrary } from './library-encoders';
import {
  checkTickRange,
  encodeMintCalldata,
  liquidityForAmounts,
  MAX_TICK,
  MIN_TICK,
  MintCalldataInput,
  mintAmountsFor,
  sqrtAt,
  usableMaxTick,
} from './liquidity-calldata';
import { withPermitBatch } from './permit-batch-calldata';
import type { PermitBatch } from './permit2-typed-data';
import { PoolKey } from './pool-key';

const WETH = '0x77139Fa81c4434893f9D7e033C3e3903C46B820D';
const TUSDC = '0x993706027b3eC9d8b03A962CAaa15C133A52707c';
const HOOK = '0xB0044845d57D1ceEB39F4D851c2B4F9313c7c880';
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const KEY: PoolKey = { currency0: WETH, currency1: TUSDC, fee: 3000, tickSpacing: 60, hooks: HOOK };
// 1 WETH = 3000 tUSDC: sqrt(3000e6 / 1e18) * 2^96, as the devnet initializes it.
const SQRT_PRICE = 4339505179874779662909440n;
const TICK = TickMath.getTickAtSqrtRatio(JSBI.BigInt(SQRT_PRICE.toString())) as number;
const PRICE = { sqrtPriceX96: SQRT_PRICE, tick: TICK };

describe('sqrtAt (TickMath.getSqrtRatioAtTick, memoised)', () => {
  it('answers as TickMath for random ticks, asked once and again, and at the bounds', () => {
    const random = seededRandom(44);
    const ticks = [
      TickMath.MIN_TICK,
      TickMath.MAX_TICK,
      0,
      ...Array.from(
        { length: 500 },
        () => random.int(2 * TickMath.MAX_TICK + 1) - TickMath.MAX_TICK,
      ),
    ];
    for (const tick of [...ticks, ...ticks])
      expect([tick, sqrtAt(tick).toString()]).toEqual([
        tick,
        TickMath.getSqrtRatioAtTick(tick).toString(),
      ]);
    expect(() => sqrtAt(TickMath.MAX_TICK + 1)).toThrow();
  });
});

describe('checkTickRange', () => {
  it.each([
    [-600, 600, null],
    [-usableMaxTick(60), usableMaxTick(60), null],
    [600, -600, 'ORDER'],
    [600, 600, 'ORDER'],
    [MIN_TICK - 60, 600, 'BOUNDS'],
    [-600, MAX_TICK + 1, 'BOUNDS'],
    [-601, 600, 'SPACING'],
    [-600, 610, 'SPACING'],
  ])('%s..%s -> %s', (lower, upper, rule) => {
    expect(checkTickRange(lower, upper, 60)?.rule ?? null).toBe(rule);
  });

  it('gives a hint that names the rule and a fix', () => {
    expect(checkTickRange(-601, 600, 60)!.hint).toContain('-601 -> -600');
    expect(checkTickRange(600, -600, 60)!.hint).toContain('tickLower < tickUpper');
    expect(checkTickRange(MIN_TICK - 1, 0, 60)!.hint).toContain(String(usableMaxTick(60)));
  });
});

describe('liquidityForAmounts', () => {
  const pool = new Pool(
    new Token(84532, WETH, 18),
    new Token(84532, TUSDC, 6),
    3000,
    60,
    HOOK,
    SQRT_PRICE.toString(),
    '1',
    TICK,
  );

  it.each([
    [-887220, 887220, 10n ** 18n, 3000n * 10n ** 6n],
    [TICK - (TICK % 60) - 600, TICK - (TICK % 60) + 600, 10n ** 17n, 10n ** 9n],
    [TICK - (TICK % 60) + 600, TICK - (TICK % 60) + 1200, 10n ** 17n, 1n], // above price: token0 only
    [TICK - (TICK % 60) - 1200, TICK - (TICK % 60) - 600, 1n, 10n ** 9n], // below price: token1 only
  ])(
    'matches v4-sdk Position.fromAmounts and fits the amounts (%s..%s)',
    (lower, upper, a0, a1) => {
      const liquidity = liquidityForAmounts(PRICE, lower, upper, a0, a1);
      const sdk = Position.fromAmounts({
        pool,
        tickLower: lower,
        tickUpper: upper,
        amount0: a0.toString(),
        amount1: a1.toString(),
        useFullPrecision: true,
      });
      expect(liquidity > 0n).toBe(true);
      // Equal, or a hair lower where core's round-up would otherwise exceed a maximum.
      const diff = BigInt(sdk.liquidity.toString()) - liquidity;
      expect(diff >= 0n && diff <= BigInt(sdk.liquidity.toString()) / 1_000_000_000n + 1n).toBe(
        true,
      );
      const need = mintAmountsFor(liquidity, PRICE, lower, upper);
      expect(need.amount0 <= a0 && need.amount1 <= a1).toBe(true);
    },
  );
});

describe('encodeMintCalldata', () => {
  it('encodes modifyLiquidities with MINT_POSITION + SETTLE_PAIR and owner = user', () => {
    const data = encodeMintCalldata({
      poolKey: KEY,
      tickLower: -600,
      tickUpper: 600,
      liquidity: 123_456n,
      amount0Max: 10n ** 18n,
      amount1Max: 3n * 10n ** 9n,
      owner: OWNER.toLowerCase(),
      deadline: 1_900_000_000n,
    });
    const call = POSITION_MANAGER.parseTransaction({ data })!;
    expect(call.name).toBe('modifyLiquidities');
    expect(data.slice(0, 10)).toBe('0xdd46508f');
    expect(call.args[1]).toBe(1_900_000_000n);
    const coder = AbiCoder.defaultAbiCoder();
    const [actions, params] = coder.decode(['bytes', 'bytes[]'], call.args[0]);
    expect(actions).toBe('0x020d');
    const mint = coder.decode(
      [
        'tuple(address,address,uint24,int24,address)',
        'int24',
        'int24',
        'uint256',
        'uint128',
        'uint128',
        'address',
        'bytes',
      ],
      params[0],
    );
    expect([...mint[0]]).toEqual([WETH, TUSDC, 3000n, 60n, HOOK]);
    expect(mint.slice(1)).toEqual([-600n, 600n, 123_456n, 10n ** 18n, 3n * 10n ** 9n, OWNER, '0x']);
    expect([...coder.decode(['address', 'address'], params[1])]).toEqual([WETH, TUSDC]);
  });
});

describe('mint calldata is byte-equal to the V4Planner / PositionManager reference', () => {
  it('encodeMintCalldata over random ranges, amounts, owners, deadlines and pool keys', () => {
    const r = seededRandom(0x3117);
    for (let i = 0; i < 300; i += 1) {
      const poolKey: PoolKey = r.bool()
        ? KEY
        : {
            currency0: r.address(),
            currency1: r.address(),
            fee: Number(r.uint(24)),
            tickSpacing: r.int(1 << 24) - (1 << 23),
            hooks: r.address(),
          };
      const input: MintCalldataInput = {
        poolKey,
        tickLower: r.int(1 << 24) - (1 << 23),
        tickUpper: r.int(1 << 24) - (1 << 23),
        liquidity: r.uint(256),
        amount0Max: r.uint(128),
        amount1Max: r.uint(128),
        owner: r.address(),
        deadline: r.uint(r.bool() ? 64 : 256),
        // Issue 54: hook v3's authorization (160 bytes) in half the runs.
        ...(r.bool() && { hookData: `0x${r.bytes(160)}` }),
      };
      expect(encodeMintCalldata(input)).toBe(mintCalldataByPlanner(input));
    }
  });

  it('withPermitBatch over random batches (1-3 tokens), signatures and calls', () => {
    const r = seededRandom(0xba7c);
    for (let i = 0; i < 200; i += 1) {
      const batch: PermitBatch = {
        details: Array.from({ length: 1 + r.int(3) }, () => ({
          token: r.address(),
          amount: r.uint(160).toString(),
          expiration: r.uint(48).toString(),
          nonce: r.uint(48).toString(),
        })),
        spender: r.address(),
        sigDeadline: r.uint(256).toString(),
      };
      const call = `0x${r.bytes(r.int(700))}`;
      const owner = r.address();
      const signature = `0x${r.bytes(r.bool() ? 65 : 64)}`;
      expect(withPermitBatch(call, owner, batch, signature)).toBe(
        withPermitBatchByLibrary(call, owner, batch, signature),
      );
    }
  });

  it('refuses what the library refuses', () => {
    const mint: MintCalldataInput = {
      poolKey: KEY,
      tickLower: -600,
      tickUpper: 600,
      liquidity: 1n,
      amount0Max: 1n,
      amount1Max: 1n,
      owner: OWNER,
      deadline: 1n,
    };
    const refusedMints: MintCalldataInput[] = [
      { ...mint, tickLower: -(1 << 23) - 1 },
      { ...mint, tickUpper: 1 << 23 },
      { ...mint, liquidity: 1n << 256n },
      { ...mint, amount0Max: 1n << 128n },
      { ...mint, amount1Max: -1n },
      { ...mint, owner: OWNER.replace('C8', 'c8') }, // wrong EIP-55 checksum
      { ...mint, owner: '0x1234' },
    ];
    for (const input of refusedMints) {
      expect(() => mintCalldataByPlanner(input)).toThrow();
      expect(() => encodeMintCalldata(input)).toThrow();
    }
    const batch = (over: Partial<PermitBatch['details'][number]>): PermitBatch => ({
      details: [{ token: WETH, amount: '1', expiration: '1', nonce: '0', ...over }],
      spender: OWNER,
      sigDeadline: '1',
    });
    const sig = `0x${'11'.repeat(65)}`;
    const refusedBatches: Array<[string, string, PermitBatch, string]> = [
      ['0x12', OWNER, batch({ amount: (1n << 160n).toString() }), sig],
      ['0x12', OWNER, batch({ nonce: (1n << 48n).toString() }), sig],
      ['0x12', OWNER, batch({ token: WETH.replace('F', 'f') }), sig],
      ['0x12', OWNER, batch({ expiration: '' }), sig],
      ['0x12', OWNER.replace('C8', 'c8'), batch({}), sig],
      ['0x12', OWNER, batch({}), '0x1'],
      ['0x123', OWNER, batch({}), sig],
    ];
    for (const args of refusedBatches) {
      expect(() => withPermitBatchByLibrary(...args)).toThrow();
      expect(() => withPermitBatch(...args)).toThrow();
    }
  });
});
