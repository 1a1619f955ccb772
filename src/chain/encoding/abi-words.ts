/**
 * Hand-rolled ABI encoding for the few shapes on the hot path of every build (Multicall3
 * aggregate3 and calls whose arguments are all static words). ethers v6's AbiCoder spends ~1 ms
 * encoding one 13-call aggregate3 and recomputes each function selector (a keccak) on every
 * encode; these Buffer-based codecs do the same in microseconds. Tests check them against ethers.
 */

const WORD = 32;

function hexBody(hex: string): string {
  return hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
}

function word(value: bigint): string {
  // Negative integers are two's complement (int24 ticks).
  return BigInt.asUintN(256, value)
    .toString(16)
    .padStart(WORD * 2, '0');
}

/** One static argument as a 32-byte word: address, bool, or unsigned integer (< 2^256). */
export function staticWord(value: string | bigint | number | boolean): string {
  if (typeof value === 'boolean') return word(value ? 1n : 0n);
  if (typeof value === 'string')
    return hexBody(value)
      .toLowerCase()
      .padStart(WORD * 2, '0');
  return word(BigInt(value));
}

/** selector + static words, e.g. balanceOf(address): `encodeStaticCall('0x70a08231', [wallet])`. */
export function encodeStaticCall(
  selector: string,
  args: ReadonlyArray<string | bigint | number | boolean>,
): string {
  return `0x${hexBody(selector)}${args.map(staticWord).join('')}`;
}

export interface AggregateCall {
  target: string;
  allowFailure: boolean;
  callData: string;
}

/** aggregate3((address,bool,bytes)[]) calldata. */
export function encodeAggregate3Calldata(
  selector: string,
  calls: readonly AggregateCall[],
): string {
  const heads: string[] = [];
  const tails: string[] = [];
  // Each element is a dynamic tuple: the array holds offsets relative to the start of its body.
  let offset = calls.length * WORD;
  for (const call of calls) {
    const data = hexBody(call.callData);
    const length = data.length / 2;
    const padded = data.padEnd(Math.ceil(length / WORD) * WORD * 2, '0');
    const tuple =
      staticWord(call.target) +
      staticWord(call.allowFailure) +
      word(3n * BigInt(WORD)) +
      word(BigInt(length)) +
      padded;
    heads.push(word(BigInt(offset)));
    tails.push(tuple);
    offset += tuple.length / 2;
  }
  return `0x${hexBody(selector)}${word(32n)}${word(BigInt(calls.length))}${heads.join('')}${tails.join('')}`;
}

export interface AggregateResult {
  success: boolean;
  returnData: string;
}

/** Decodes aggregate3's (bool,bytes)[] return value. Throws on malformed data. */
export function decodeAggregate3Result(raw: string): AggregateResult[] {
  const buf = Buffer.from(hexBody(raw), 'hex');
  const readWord = (at: number): number => {
    if (at + WORD > buf.length) throw new Error('aggregate3 result is truncated');
    // Offsets, lengths and bools all fit in 6 bytes; anything larger is malformed.
    for (let i = at; i < at + WORD - 6; i += 1)
      if (buf[i] !== 0) throw new Error('aggregate3 word out of range');
    return buf.readUIntBE(at + WORD - 6, 6);
  };
  const arrayStart = readWord(0);
  const count = readWord(arrayStart);
  const body = arrayStart + WORD;
  const results: AggregateResult[] = [];
  for (let i = 0; i < count; i += 1) {
    const tuple = body + readWord(body + i * WORD);
    const success = readWord(tuple) === 1;
    const dataStart = tuple + readWord(tuple + WORD);
    const length = readWord(dataStart);
    if (dataStart + WORD + length > buf.length) throw new Error('aggregate3 result is truncated');
    results.push({
      success,
      returnData: `0x${buf.toString('hex', dataStart + WORD, dataStart + WORD + length)}`,
    });
  }
  return results;
}

/**
 * ethers v6 recomputes a function's selector (keccak of its signature) on every encode; freeze
 * each selector once on the fragment so hot-path encodes skip that hash.
 */
export function withCachedSelectors<T extends { fragments: readonly unknown[] }>(iface: T): T {
  for (const fragment of iface.fragments as Array<{ type?: string; selector?: string }>) {
    if (fragment.type !== 'function' && fragment.type !== 'error') continue;
    const selector = fragment.selector;
    Object.defineProperty(fragment, 'selector', { value: selector, enumerable: false });
  }
  return iface;
}

/** Word `index` of ABI-encoded static return data, as an unsigned integer. */
export function readWord(returnData: string, index: number): bigint {
  const start = 2 + index * WORD * 2;
  if (returnData.length < start + WORD * 2) throw new Error(`return data has no word ${index}`);
  return BigInt(`0x${returnData.slice(start, start + WORD * 2)}`);
}

/** Word `index` as a two's-complement signed integer (int24 ticks and the like). */
export function readSignedWord(returnData: string, index: number): bigint {
  return BigInt.asIntN(256, readWord(returnData, index));
}

/**
 * A call whose single argument is a tuple of static words followed by one empty `bytes` (the v4
 * periphery "params with hookData" shape, e.g. V4Quoter.quoteExactInputSingle with hookData 0x).
 */
export function encodeTupleWithEmptyBytes(
  selector: string,
  staticArgs: ReadonlyArray<string | bigint | number | boolean>,
): string {
  const headWords = staticArgs.length + 1;
  return (
    `0x${hexBody(selector)}${word(32n)}` +
    staticArgs.map(staticWord).join('') +
    word(BigInt(headWords * WORD)) +
    word(0n)
  );
}
