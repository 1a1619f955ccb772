import { AbiCoder, getAddress } from 'ethers';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { UNIVERSAL_ROUTER, V4_ACTION_PARAMS } from '../../chain/abi/uniswap-v4';
import { swapCalldataByPlanner } from './library-encoders';
import type { PermitSingle } from './permit2-typed-data';
import { PoolKey, poolIdOf, zeroForOneFor } from './pool-key';
import {
  encodeSwapCalldata,
  minAmountOut,
  SwapAmounts,
  SwapCalldataInput,
  V4_SWAP_COMMAND,
} from './swap-calldata';

const WETH = '0x77139Fa81c4434893f9D7e033C3e3903C46B820D';
const TUSDC = '0x993706027b3eC9d8b03A962CAaa15C133A52707c';
const HOOK = '0xB0044845d57D1ceEB39F4D851c2B4F9313c7c880';
const KEY: PoolKey = { currency0: WETH, currency1: TUSDC, fee: 3000, tickSpacing: 60, hooks: HOOK };
const coder = AbiCoder.defaultAbiCoder();
// UR 2.0 ExactInputSingleParams (v4-periphery IV4Router), the layout the deployed router decodes.
const EXACT_IN_SINGLE =
  'tuple(tuple(address,address,uint24,int24,address) poolKey, bool zeroForOne, uint128 amountIn, uint128 amountOutMinimum, bytes hookData)';

function decode(data: string) {
  const call = UNIVERSAL_ROUTER.parseTransaction({ data })!;
  const [commands, inputs, deadline] = call.args as unknown as [string, string[], bigint];
  const [actions, params] = coder.decode(['bytes', 'bytes[]'], inputs[0]) as unknown as [
    string,
    string[],
  ];
  return { call, commands, inputs, deadline, actions, params };
}

describe('encodeSwapCalldata', () => {
  it('encodes execute(V4_SWAP) with SWAP_EXACT_IN_SINGLE, SETTLE_ALL, TAKE_ALL (WETH -> tUSDC)', () => {
    const data = encodeSwapCalldata({
      poolKey: KEY,
      zeroForOne: true,
      amountIn: 10n ** 17n,
      amountOutMinimum: 298_000_000n,
      deadline: 1_900_000_000n,
    });
    const { call, commands, inputs, deadline, actions, params } = decode(data);
    expect(call.signature).toBe('execute(bytes,bytes[],uint256)');
    expect(data.slice(0, 10)).toBe('0x3593564c');
    expect(commands).toBe('0x10');
    expect(V4_SWAP_COMMAND).toBe(0x10);
    expect(inputs).toHaveLength(1);
    expect(deadline).toBe(1_900_000_000n);
    expect(actions).toBe('0x060c0f');
    const [swap] = coder.decode([EXACT_IN_SINGLE], params[0]);
    expect([...swap.poolKey]).toEqual([WETH, TUSDC, 3000n, 60n, HOOK]);
    expect(swap.zeroForOne).toBe(true);
    expect(swap.amountIn).toBe(10n ** 17n);
    expect(swap.amountOutMinimum).toBe(298_000_000n);
    expect(swap.hookData).toBe('0x');
    expect([...coder.decode(['address', 'uint256'], params[1])]).toEqual([WETH, 10n ** 17n]);
    expect([...coder.decode(['address', 'uint256'], params[2])]).toEqual([TUSDC, 298_000_000n]);
  });

  it('settles tUSDC and takes WETH for the reverse direction', () => {
    const data = encodeSwapCalldata({
      poolKey: KEY,
      zeroForOne: false,
      amountIn: 300_000_000n,
      amountOutMinimum: 1n,
      deadline: 1n,
    });
    const { params } = decode(data);
    expect(coder.decode([EXACT_IN_SINGLE], params[0])[0].zeroForOne).toBe(false);
    expect(coder.decode(['address', 'uint256'], params[1])[0]).toBe(TUSDC);
    expect(coder.decode(['address', 'uint256'], params[2])[0]).toBe(WETH);
  });

  it('handles amounts up to 2^128 - 1', () => {
    const max = (1n << 128n) - 1n;
    const { params } = decode(
      encodeSwapCalldata({
        poolKey: KEY,
        zeroForOne: true,
        amountIn: max,
        amountOutMinimum: max,
        deadline: 1n,
      }),
    );
    expect(coder.decode([EXACT_IN_SINGLE], params[0])[0].amountIn).toBe(max);
  });
});

describe('minAmountOut', () => {
  it.each([
    [1_000_000n, 50, 995_000n],
    [1_000_000n, 0, 1_000_000n],
    [1_000_000n, 5000, 500_000n],
    [999n, 50, 994n], // rounds down
    [0n, 50, 0n],
  ])('quote %s at %s bps -> %s', (quote, bps, expected) => {
    expect(minAmountOut(quote, bps)).toBe(expected);
  });

  it('rejects out-of-range slippage', () => {
    expect(() => minAmountOut(1n, -1)).toThrow(RangeError);
    expect(() => minAmountOut(1n, 10_001)).toThrow(RangeError);
    expect(() => minAmountOut(1n, 1.5)).toThrow(RangeError);
  });
});

describe('pool key helpers', () => {
  it('derives zeroForOne from the address order (WETH -> tUSDC is true)', () => {
    expect(zeroForOneFor(WETH, TUSDC)).toBe(true);
    expect(zeroForOneFor(TUSDC, WETH)).toBe(false);
  });

  it('computes the PoolId as keccak256(abi.encode(key)) like v4-sdk', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Pool } = require('@uniswap/v4-sdk');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Token } = require('@uniswap/sdk-core');
    const expected = Pool.getPoolId(
      new Token(84532, WETH, 18),
      new Token(84532, TUSDC, 6),
      3000,
      60,
      HOOK,
    );
    expect(poolIdOf(KEY)).toBe(expected);
  });
});

describe('encodeSwapCalldata is byte-equal to the RoutePlanner/V4Planner reference', () => {
  const variants = [true, false].flatMap((exactOut) =>
    [true, false].flatMap((ethIn) =>
      [true, false].flatMap((ethOut) =>
        [true, false].flatMap((permit) =>
          [true, false].map((zeroForOne) => ({ exactOut, ethIn, ethOut, permit, zeroForOne })),
        ),
      ),
    ),
  );

  it.each(variants)(
    'exactOut $exactOut, ethIn $ethIn, ethOut $ethOut, permit $permit, zeroForOne $zeroForOne: random amounts, deadlines, permits, pool keys',
    (variant) => {
      const r = seededRandom(
        0x5eed ^ Object.values(variant).reduce((acc, v, i) => acc | (Number(v) << i), 0),
      );
      for (let i = 0; i < 60; i += 1) {
        // Half the runs on the network's key object (its words cached), half on fresh random keys.
        const poolKey: PoolKey = r.bool()
          ? KEY
          : {
              currency0: r.address(),
              currency1: r.address(),
              fee: Number(r.uint(24)),
              tickSpacing: r.int(1 << 24) - (1 << 23),
              hooks: r.address(),
            };
        const amounts: SwapAmounts = variant.exactOut
          ? { tradeType: 'EXACT_OUTPUT', amountOut: r.uint(128), amountInMaximum: r.uint(128) }
          : r.bool()
            ? { amountIn: r.uint(128), amountOutMinimum: r.uint(128) }
            : { tradeType: 'EXACT_INPUT', amountIn: r.uint(128), amountOutMinimum: r.uint(128) };
        const input: SwapCalldataInput = {
          ...amounts,
          poolKey,
          zeroForOne: variant.zeroForOne,
          deadline: r.uint(r.bool() ? 64 : 256),
          ethIn: variant.ethIn,
          ethOut: variant.ethOut,
          // Issue 54: hook v3's authorization (160 bytes), other lengths, or none.
          ...(r.bool() && {
            hookData: [r.bool() ? '0x' : `0x${r.bytes(r.bool() ? 160 : 1 + r.int(300))}`],
          }),
          ...(variant.permit && {
            permit: {
              permit: {
                details: {
                  token: r.address(),
                  amount: r.uint(160).toString(),
                  expiration: r.uint(48).toString(),
                  nonce: r.uint(48).toString(),
                },
                spender: r.address(),
                sigDeadline: r.uint(256).toString(),
              },
              signature: `0x${r.bytes(r.bool() ? 65 : 64)}`,
            },
          }),
        };
        expect(encodeSwapCalldata(input)).toBe(swapCalldataByPlanner(input));
      }
    },
  );

  it('refuses what the planner refuses: amounts outside uint128, negative amounts, bad permits', () => {
    const base = { poolKey: KEY, zeroForOne: true, deadline: 1n };
    const tooBig = { ...base, amountIn: 1n << 128n, amountOutMinimum: 0n };
    const negative = { ...base, amountIn: -1n, amountOutMinimum: 0n };
    const permit = (
      over: Partial<PermitSingle['details']>,
      spender = WETH,
      signature = '0x11',
    ) => ({
      ...base,
      amountIn: 1n,
      amountOutMinimum: 1n,
      permit: {
        permit: {
          details: { token: WETH, amount: '1', expiration: '1', nonce: '0', ...over },
          spender,
          sigDeadline: '1',
        },
        signature,
      },
    });
    const refused: SwapCalldataInput[] = [
      tooBig,
      negative,
      { ...base, amountIn: 1n, amountOutMinimum: 1n, deadline: -1n },
      permit({ amount: (1n << 160n).toString() }),
      permit({ expiration: (1n << 48n).toString() }),
      permit({ nonce: '-1' }),
      permit({ amount: '' }),
      permit({ amount: 'ten' }),
      // A wrong EIP-55 checksum (mixed case) on the token or the spender.
      permit({ token: WETH.replace('F', 'f') }),
      permit({}, TUSDC.replace('A', 'a')),
      permit({}, WETH, '0x123'), // odd-length signature
      permit({}, WETH, '0xzz'),
    ];
    for (const input of refused) {
      expect(() => swapCalldataByPlanner(input)).toThrow();
      expect(() => encodeSwapCalldata(input)).toThrow();
    }
  });
});

describe('encodeSwapCalldata over a multi-hop path (issue 42)', () => {
  const TWBTC = getAddress('0xd13e2b6a4c0c81cf2b07dae0cc4d0c6aec6e3f11');
  const wbtcKey: PoolKey = {
    currency0: WETH,
    currency1: TWBTC,
    fee: 500,
    tickSpacing: 10,
    hooks: HOOK,
  };
  // IV4Router ExactInputParams / ExactOutputParams in the deployed router's layout (UR 2.1.1).
  const [EXACT_IN] = V4_ACTION_PARAMS.SWAP_EXACT_IN;
  const [EXACT_OUT] = V4_ACTION_PARAMS.SWAP_EXACT_OUT;
  const path = { currencyIn: TWBTC, currencyOut: TUSDC, pools: [wbtcKey, KEY] };

  it('encodes SWAP_EXACT_IN with path keys naming where each hop goes (tWBTC -> WETH -> tUSDC)', () => {
    const data = encodeSwapCalldata({
      path,
      amountIn: 10n ** 6n,
      amountOutMinimum: 5n,
      deadline: 1n,
    });
    const { actions, params } = decode(data);
    expect(actions).toBe('0x070c0f');
    const [swap] = coder.decode([EXACT_IN], params[0]);
    expect(swap.currencyIn).toBe(TWBTC);
    expect(swap.path.map((k: unknown[]) => [...k])).toEqual([
      [WETH, 500n, 10n, HOOK, '0x'],
      [TUSDC, 3000n, 60n, HOOK, '0x'],
    ]);
    expect([...swap.minHopPriceX36]).toEqual([]);
    expect([swap.amountIn, swap.amountOutMinimum]).toEqual([10n ** 6n, 5n]);
    expect(coder.decode(['address', 'uint256'], params[1])[0]).toBe(TWBTC);
    expect(coder.decode(['address', 'uint256'], params[2])[0]).toBe(TUSDC);
  });

  it('encodes SWAP_EXACT_OUT with path keys naming where each hop comes from', () => {
    const data = encodeSwapCalldata({
      path,
      tradeType: 'EXACT_OUTPUT',
      amountOut: 7n,
      amountInMaximum: 9n,
      deadline: 1n,
    });
    const { actions, params } = decode(data);
    expect(actions).toBe('0x090c0f');
    const [swap] = coder.decode([EXACT_OUT], params[0]);
    expect(swap.currencyOut).toBe(TUSDC);
    expect(swap.path.map((k: unknown[]) => k[0])).toEqual([TWBTC, WETH]);
    expect([swap.amountOut, swap.amountInMaximum]).toEqual([7n, 9n]);
  });

  const variants = [true, false].flatMap((exactOut) =>
    [true, false].flatMap((ethIn) =>
      [true, false].flatMap((ethOut) =>
        [true, false].map((permit) => ({ exactOut, ethIn, ethOut, permit })),
      ),
    ),
  );

  it.each(variants)(
    'is byte-equal to V4Planner + encodeRouteToPath: exactOut $exactOut, ethIn $ethIn, ethOut $ethOut, permit $permit, 2 and 3 hops',
    (variant) => {
      const r = seededRandom(
        0xb0b ^ Object.values(variant).reduce((acc, v, i) => acc | (Number(v) << i), 0),
      );
      for (let i = 0; i < 40; i += 1) {
        const tokens = Array.from({ length: r.bool() ? 3 : 4 }, () => r.address());
        const pools = tokens.slice(1).map((to, hop): PoolKey => {
          const [currency0, currency1] = zeroForOneFor(tokens[hop], to)
            ? [tokens[hop], to]
            : [to, tokens[hop]];
          return {
            currency0,
            currency1,
            fee: r.int(1_000_000),
            tickSpacing: 1 + r.int(1 << 14),
            hooks: r.address(),
          };
        });
        const amounts: SwapAmounts = variant.exactOut
          ? { tradeType: 'EXACT_OUTPUT', amountOut: r.uint(128), amountInMaximum: r.uint(128) }
          : { amountIn: r.uint(128), amountOutMinimum: r.uint(128) };
        const input: SwapCalldataInput = {
          ...amounts,
          path: { currencyIn: tokens[0], currencyOut: tokens[tokens.length - 1], pools },
          deadline: r.uint(64),
          // Issue 54: hookData per pool (the first hop's authorization, '0x' after it), or none.
          ...(r.bool() && {
            hookData: pools.map((_, hop) =>
              hop === 0 || r.bool() ? `0x${r.bytes(hop === 0 ? 160 : 1 + r.int(200))}` : '0x',
            ),
          }),
          ethIn: variant.ethIn,
          ethOut: variant.ethOut,
          ...(variant.permit && {
            permit: {
              permit: {
                details: { token: r.address(), amount: '1', expiration: '2', nonce: '3' },
                spender: r.address(),
                sigDeadline: '4',
              },
              signature: `0x${r.bytes(65)}`,
            },
          }),
        };
        expect(encodeSwapCalldata(input)).toBe(swapCalldataByPlanner(input));
      }
    },
  );
});
