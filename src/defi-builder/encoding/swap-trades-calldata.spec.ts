/**
 * encodeSwapCalldata's trade types, native ETH and permit, decoded back with the library's own
 * parser (@uniswap/universal-router-sdk CommandParser: commands and v4 actions). The same
 * calldata executes on the devnet in test/defi-builder/swap-trades.e2e-spec.ts.
 */
import { CommandParser } from '@uniswap/universal-router-sdk';
import type { PoolKey } from './pool-key';
import { encodeSwapCalldata, maxAmountIn, MSG_SENDER, SwapCalldataInput } from './swap-calldata';

const WETH = '0x77139Fa81c4434893f9D7e033C3e3903C46B820D';
const TUSDC = '0x993706027b3eC9d8b03A962CAaa15C133A52707c';
const HOOK = '0xB0044845d57D1ceEB39F4D851c2B4F9313c7c880';
const ROUTER_ITSELF = '0x0000000000000000000000000000000000000002';
const KEY: PoolKey = { currency0: WETH, currency1: TUSDC, fee: 3000, tickSpacing: 60, hooks: HOOK };

/** Commands as [name, {param: value}] with numbers as bigint (the parser returns ethers v5 BigNumbers). */
function parse(input: SwapCalldataInput) {
  const plain = (v: unknown): unknown => {
    if (v && typeof v === 'object' && (v as { _isBigNumber?: boolean })._isBigNumber)
      return BigInt((v as { toString(): string }).toString());
    if (Array.isArray(v)) return v.map(plain);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
    return v;
  };
  const call = CommandParser.parseCalldata(encodeSwapCalldata(input));
  return call.commands.map((c) => ({
    name: c.commandName,
    params: Object.fromEntries(c.params.map((p) => [p.name, plain(p.value)])),
  }));
}

const args = (action: unknown) =>
  Object.fromEntries(
    (action as Array<{ name: string; value: unknown }>).map((p) => [p.name, p.value]),
  );

describe('encodeSwapCalldata (trade types, native ETH, permit)', () => {
  it('exact output ERC-20: SWAP_EXACT_OUT_SINGLE, SETTLE_ALL(max in), TAKE_ALL(exact out)', () => {
    const commands = parse({
      tradeType: 'EXACT_OUTPUT',
      amountOut: 250_000_000n,
      amountInMaximum: 9n * 10n ** 16n,
      poolKey: KEY,
      zeroForOne: true,
      deadline: 1n,
    });
    expect(commands.map((c) => c.name)).toEqual(['V4_SWAP']);
    const v4 = commands[0].params;
    expect(Object.keys(v4)).toEqual(['SWAP_EXACT_OUT_SINGLE', 'SETTLE_ALL', 'TAKE_ALL']);
    expect(args(v4.SWAP_EXACT_OUT_SINGLE).swap).toMatchObject({
      zeroForOne: true,
      amountOut: 250_000_000n,
      amountInMaximum: 9n * 10n ** 16n,
    });
    expect(args(v4.SETTLE_ALL)).toEqual({ currency: WETH, maxAmount: 9n * 10n ** 16n });
    expect(args(v4.TAKE_ALL)).toEqual({ currency: TUSDC, minAmount: 250_000_000n });
  });

  it('ETH in, exact input: WRAP_ETH(router, amount), SETTLE(WETH, amount, router pays), TAKE_ALL', () => {
    const commands = parse({
      amountIn: 10n ** 17n,
      amountOutMinimum: 5n,
      poolKey: KEY,
      zeroForOne: true,
      deadline: 1n,
      ethIn: true,
    });
    expect(commands.map((c) => c.name)).toEqual(['WRAP_ETH', 'V4_SWAP']);
    expect(commands[0].params).toEqual({ recipient: ROUTER_ITSELF, amount: 10n ** 17n });
    const v4 = commands[1].params;
    expect(args(v4.SETTLE)).toEqual({ currency: WETH, amount: 10n ** 17n, payerIsUser: false });
    expect(args(v4.TAKE_ALL)).toEqual({ currency: TUSDC, minAmount: 5n });
  });

  it('ETH in, exact output: wraps max in, settles the open delta, unwraps the rest back to the sender', () => {
    const commands = parse({
      tradeType: 'EXACT_OUTPUT',
      amountOut: 5n,
      amountInMaximum: 7n,
      poolKey: KEY,
      zeroForOne: true,
      deadline: 1n,
      ethIn: true,
    });
    expect(commands.map((c) => c.name)).toEqual(['WRAP_ETH', 'V4_SWAP', 'UNWRAP_WETH']);
    expect(args(commands[1].params.SETTLE)).toEqual({
      currency: WETH,
      amount: 0n,
      payerIsUser: false,
    });
    expect(commands[2].params).toEqual({ recipient: MSG_SENDER, amountMin: 0n });
  });

  it('ETH out: TAKE(WETH, router, open delta) then UNWRAP_WETH(sender, min out)', () => {
    const commands = parse({
      amountIn: 300_000_000n,
      amountOutMinimum: 99n,
      poolKey: KEY,
      zeroForOne: false,
      deadline: 1n,
      ethOut: true,
    });
    expect(commands.map((c) => c.name)).toEqual(['V4_SWAP', 'UNWRAP_WETH']);
    const v4 = commands[0].params;
    expect(args(v4.SETTLE_ALL)).toEqual({ currency: TUSDC, maxAmount: 300_000_000n });
    expect(args(v4.TAKE)).toEqual({ currency: WETH, recipient: ROUTER_ITSELF, amount: 0n });
    expect(commands[1].params).toEqual({ recipient: MSG_SENDER, amountMin: 99n });
  });

  it('a signed permit runs first as PERMIT2_PERMIT', () => {
    const permit = {
      details: { token: WETH, amount: '100', expiration: '1900000000', nonce: '3' },
      spender: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
      sigDeadline: '1900000000',
    };
    const signature = `0x${'11'.repeat(65)}`;
    const commands = parse({
      amountIn: 100n,
      amountOutMinimum: 1n,
      poolKey: KEY,
      zeroForOne: true,
      deadline: 1n,
      permit: { permit, signature },
    });
    expect(commands.map((c) => c.name)).toEqual(['PERMIT2_PERMIT', 'V4_SWAP']);
    expect(commands[0].params.signature).toBe(signature);
    // The parser returns the struct positionally: ((token, amount, expiration, nonce), spender, sigDeadline).
    expect(commands[0].params.permit).toEqual([
      [WETH, 100n, 1_900_000_000, 3],
      permit.spender,
      1_900_000_000n,
    ]);
  });
});

describe('maxAmountIn', () => {
  it.each([
    [1_000_000n, 50, 1_005_000n],
    [999n, 50, 1004n], // 1003.995 rounds up
    [1n, 0, 1n],
  ])('quote %s at %s bps -> %s', (quote, bps, expected) => {
    expect(maxAmountIn(quote, bps)).toBe(expected);
  });

  it('rejects out-of-range slippage', () => {
    expect(() => maxAmountIn(1n, -1)).toThrow(RangeError);
  });
});
