import { AbiCoder, Interface, getAddress } from 'ethers';
import {
  decodeAggregate3Result,
  encodeAggregate3Calldata,
  encodeStaticCall,
  encodeTupleWithEmptyBytes,
} from './abi-words';

const MULTICALL = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
]);
const READS = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address,address,address) view returns (uint160,uint48,uint48)',
]);
const A = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
const B = getAddress('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc');

describe('abi-words', () => {
  it('encodes static calls exactly as ethers does', () => {
    expect(encodeStaticCall(READS.getFunction('balanceOf')!.selector, [A])).toBe(
      READS.encodeFunctionData('balanceOf', [A]),
    );
    expect(encodeStaticCall(READS.getFunction('allowance')!.selector, [A, B, A])).toBe(
      READS.encodeFunctionData('allowance', [A, B, A]),
    );
    expect(encodeStaticCall('0x12345678', [2n ** 255n, true, 7])).toBe(
      '0x12345678' +
        AbiCoder.defaultAbiCoder()
          .encode(['uint256', 'bool', 'uint8'], [2n ** 255n, true, 7])
          .slice(2),
    );
  });

  it.each([0, 1, 13])('encodes aggregate3 with %i calls exactly as ethers does', (n) => {
    const calls = Array.from({ length: n }, (_, i) => ({
      target: i % 2 ? A : B,
      allowFailure: i % 3 === 0,
      callData: '0x' + 'ab'.repeat(i * 7 + (i % 2 ? 36 : 4)),
    }));
    const selector = MULTICALL.getFunction('aggregate3')!.selector;
    expect(encodeAggregate3Calldata(selector, calls)).toBe(
      MULTICALL.encodeFunctionData('aggregate3', [
        calls.map((c) => [c.target, c.allowFailure, c.callData]),
      ]),
    );
  });

  it('encodes a tuple argument ending in empty bytes exactly as ethers does', () => {
    const quoter = new Interface([
      'function quoteExactInputSingle(((address,address,uint24,int24,address) poolKey, bool zeroForOne, uint128 exactAmount, bytes hookData) params) returns (uint256, uint256)',
    ]);
    const poolKey = [A, B, 3000, 60, B] as const;
    const expected = quoter.encodeFunctionData('quoteExactInputSingle', [
      [poolKey, true, 10n ** 18n, '0x'],
    ]);
    expect(
      encodeTupleWithEmptyBytes(quoter.getFunction('quoteExactInputSingle')!.selector, [
        ...poolKey.slice(0, 3),
        60,
        B,
        true,
        10n ** 18n,
      ]),
    ).toBe(expected);
  });

  it('decodes aggregate3 results exactly as ethers does', () => {
    const results = [
      [true, '0x' + '00'.repeat(31) + '2a'],
      [false, '0x'],
      [true, '0x' + 'cd'.repeat(77)],
    ] as const;
    const raw = AbiCoder.defaultAbiCoder().encode(['(bool,bytes)[]'], [results]);
    expect(decodeAggregate3Result(raw)).toEqual(
      results.map(([success, returnData]) => ({ success, returnData })),
    );
  });

  it('refuses truncated or absurd results instead of reading garbage', () => {
    const raw = AbiCoder.defaultAbiCoder().encode(['(bool,bytes)[]'], [[[true, '0x1234']]]);
    expect(() => decodeAggregate3Result(raw.slice(0, raw.length - 70))).toThrow(/truncated/);
    expect(() => decodeAggregate3Result('0x' + 'ff'.repeat(64))).toThrow();
  });
});
