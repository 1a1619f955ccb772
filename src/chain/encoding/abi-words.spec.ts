import { AbiCoder, Interface, getAddress } from 'ethers';
import { seededRandom } from '../../../test/helpers/seeded-random';
import {
  addressWord,
  boolWord,
  bytesArrayBody,
  bytesBody,
  decodeAggregate3Result,
  encodeAggregate3Calldata,
  encodedBytesArrayBody,
  encodeParts,
  encodeStaticCall,
  encodeTupleWithEmptyBytes,
  intWord,
  parseUint,
  uintWord,
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

  it('encodes aggregate3 exactly as ethers does over random batches', () => {
    const r = seededRandom(0xa63);
    const selector = MULTICALL.getFunction('aggregate3')!.selector;
    for (let i = 0; i < 200; i += 1) {
      const calls = Array.from({ length: r.int(16) }, () => ({
        target: r.address(),
        allowFailure: r.bool(),
        callData: `0x${r.bytes(r.int(200))}`,
      }));
      expect(encodeAggregate3Calldata(selector, calls)).toBe(
        MULTICALL.encodeFunctionData('aggregate3', [
          calls.map((c) => [c.target, c.allowFailure, c.callData]),
        ]),
      );
    }
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

describe('typed words and dynamic parts', () => {
  const coder = AbiCoder.defaultAbiCoder();

  it('encode (uint<n>, int24, address, bool, bytes, bytes[], uint256) exactly as ethers does', () => {
    const r = seededRandom(0xab1);
    for (let i = 0; i < 300; i += 1) {
      const u = r.uint(128);
      const n = BigInt(r.int(1 << 24) - (1 << 23));
      const address = r.address();
      const flag = r.bool();
      const bytes = `0x${r.bytes(r.int(80))}`;
      const list = Array.from({ length: r.int(4) }, () => `0x${r.bytes(r.int(70))}`);
      const last = r.uint(256);
      const ours = encodeParts([
        uintWord(u, 128),
        intWord(n, 24),
        addressWord(address),
        boolWord(flag),
        { tail: bytesBody(bytes) },
        { tail: bytesArrayBody(list) },
        uintWord(last),
      ]);
      const theirs = coder.encode(
        ['uint128', 'int24', 'address', 'bool', 'bytes', 'bytes[]', 'uint256'],
        [u, n, address, flag, bytes, list, last],
      );
      expect(`0x${ours}`).toBe(theirs);
      expect(encodedBytesArrayBody(list.map((b) => b.slice(2)))).toBe(bytesArrayBody(list));
    }
  });

  it('refuses out-of-range integers and malformed bytes, as ethers does', () => {
    const refused: Array<[() => unknown, () => unknown]> = [
      [() => uintWord(1n << 128n, 128), () => coder.encode(['uint128'], [1n << 128n])],
      [() => uintWord(-1n), () => coder.encode(['uint256'], [-1n])],
      [() => intWord(1n << 23n, 24), () => coder.encode(['int24'], [1n << 23n])],
      [() => intWord(-(1n << 23n) - 1n, 24), () => coder.encode(['int24'], [-(1n << 23n) - 1n])],
      [() => bytesBody('0x123'), () => coder.encode(['bytes'], ['0x123'])],
      [() => bytesBody('12'), () => coder.encode(['bytes'], ['12'])],
      [() => bytesBody('0xzz'), () => coder.encode(['bytes'], ['0xzz'])],
    ];
    for (const [ours, theirs] of refused) {
      expect(theirs).toThrow();
      expect(ours).toThrow();
    }
    expect(intWord(-(1n << 23n), 24)).toBe(coder.encode(['int24'], [-(1n << 23n)]).slice(2));
    expect(() => parseUint('')).toThrow();
    expect(() => parseUint(' 1')).toThrow();
    expect(() => parseUint('-1')).toThrow();
    expect(parseUint('0x10')).toBe(16n);
    expect(parseUint('10')).toBe(10n);
  });
});
