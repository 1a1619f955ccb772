import { AbiCoder } from 'ethers';
import { UNIVERSAL_ROUTER } from '../../chain/abi/uniswap-v4';
import { PoolKey, poolIdOf, zeroForOneFor } from './pool-key';
import { encodeSwapCalldata, minAmountOut, V4_SWAP_COMMAND } from './swap-calldata';

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
