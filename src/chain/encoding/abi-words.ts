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

/** A byte offset or length as a word. */
export function sizeWord(size: number): string {
  return size.toString(16).padStart(WORD * 2, '0');
}

export const FALSE_WORD = '0'.repeat(WORD * 2);
export const TRUE_WORD = `${'0'.repeat(WORD * 2 - 1)}1`;
/** (address, bool, bytes): the bytes start after the 3 head words. */
const TUPLE_BYTES_AT = sizeWord(3 * WORD);

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
  let heads = '';
  let tails = '';
  // Each element is a dynamic tuple: the array holds offsets relative to the start of its body.
  let offset = calls.length * WORD;
  for (const call of calls) {
    const data = hexBody(call.callData).toLowerCase();
    const length = data.length / 2;
    const padding = (WORD * 2 - (data.length % (WORD * 2))) % (WORD * 2);
    heads += sizeWord(offset);
    tails +=
      staticWord(call.target) +
      (call.allowFailure ? TRUE_WORD : FALSE_WORD) +
      TUPLE_BYTES_AT +
      sizeWord(length) +
      data +
      '0'.repeat(padding);
    offset += 4 * WORD + length + padding / 2;
  }
  return `0x${hexBody(selector)}${sizeWord(WORD)}${sizeWord(calls.length)}${heads}${tails}`;
}

export interface AggregateResult {
  success: boolean;
  returnData: string;
}

/**
 * Return data too short (or malformed) for what the call returns. The usual cause is no contract
 * at the address: an eth_call to an address without code succeeds with empty data (0x).
 */
export class ReturnDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReturnDataError';
  }
}

/** Decodes aggregate3's (bool,bytes)[] return value. Throws ReturnDataError on malformed data. */
export function decodeAggregate3Result(raw: string): AggregateResult[] {
  const buf = Buffer.from(hexBody(raw), 'hex');
  const readWord = (at: number): number => {
    if (at + WORD > buf.length) throw new ReturnDataError('aggregate3 result is truncated');
    // Offsets, lengths and bools all fit in 6 bytes; anything larger is malformed.
    for (let i = at; i < at + WORD - 6; i += 1)
      if (buf[i] !== 0) throw new ReturnDataError('aggregate3 word out of range');
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
    if (dataStart + WORD + length > buf.length)
      throw new ReturnDataError('aggregate3 result is truncated');
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

/** Word `index` of ABI-encoded static return data, as an unsigned integer; ReturnDataError past its end. */
export function readWord(returnData: string, index: number): bigint {
  const start = 2 + index * WORD * 2;
  if (returnData.length < start + WORD * 2)
    throw new ReturnDataError(`return data has no word ${index}`);
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

/*
 * Typed words and dynamic parts, for the calldata encoders of the build path (swap, mint,
 * approvals). Each refuses what ethers' coders refuse for the same type (out-of-range integers,
 * malformed bytes); addresses must already be checked (checksumAddress in common/address).
 */

const UINT_LIMITS = new Map<number, bigint>();
const limitOf = (bits: number): bigint => {
  let limit = UINT_LIMITS.get(bits);
  if (limit === undefined) {
    limit = 1n << BigInt(bits);
    UINT_LIMITS.set(bits, limit);
  }
  return limit;
};

/** uint<bits> as a word; RangeError outside [0, 2^bits). */
export function uintWord(value: bigint, bits = 256): string {
  if (value < 0n || value >= limitOf(bits))
    throw new RangeError(`value out of range for uint${bits}`);
  return value.toString(16).padStart(WORD * 2, '0');
}

/** int<bits> as a two's-complement word; RangeError outside [-2^(bits-1), 2^(bits-1)). */
export function intWord(value: bigint, bits = 256): string {
  const half = limitOf(bits - 1);
  if (value < -half || value >= half) throw new RangeError(`value out of range for int${bits}`);
  return word(value);
}

export function boolWord(value: boolean): string {
  return value ? TRUE_WORD : FALSE_WORD;
}

/** A checked address (0x + 40 hex, any case) as a word. */
export function addressWord(address: string): string {
  return `${'0'.repeat(24)}${address.slice(2).toLowerCase()}`;
}

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

/** Strict BigInt of a decimal or 0x-hex string (BigInt() alone would take '' or ' 1 '). */
export function parseUint(value: string | bigint): bigint {
  if (typeof value === 'bigint') return value;
  if (!/^(?:[0-9]+|0x[0-9a-fA-F]+)$/.test(value)) throw new RangeError(`not an integer: ${value}`);
  return BigInt(value);
}

/** 0x-prefixed hex of whole bytes, as lowercase data without the 0x; TypeError otherwise. */
export function hexData(hex: string): string {
  if (!HEX_BYTES.test(hex)) throw new TypeError('bytes must be 0x-prefixed hex of whole bytes');
  return hex.slice(2).toLowerCase();
}

/** A dynamic `bytes` value's encoding (length word, data right-padded to whole words), lowercase. */
export function bytesBody(hex: string): string {
  return encodedBytesBody(hexData(hex));
}

/**
 * bytesBody of data this process encoded itself (lowercase hex, whole bytes, no 0x): skips the
 * check, which would otherwise rescan every nested level of a calldata.
 */
export function encodedBytesBody(data: string): string {
  const padding = (WORD * 2 - (data.length % (WORD * 2))) % (WORD * 2);
  return `${sizeWord(data.length / 2)}${data}${'0'.repeat(padding)}`;
}

/**
 * A part of an encoded parameter list: a static word (or several, for a static tuple) inline, or
 * the encoding of a dynamic value, which goes to the tail behind an offset in the head.
 */
export type AbiPart = string | { tail: string };

/** The heads-then-tails layout of abi.encode(...parts) (hex body, no 0x). */
export function encodeParts(parts: readonly AbiPart[]): string {
  let offset = 0;
  for (const part of parts) offset += typeof part === 'string' ? part.length / 2 : WORD;
  let head = '';
  let tail = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      head += part;
    } else {
      head += sizeWord(offset);
      tail += part.tail;
      offset += part.tail.length / 2;
    }
  }
  return head + tail;
}

/** A `bytes[]` value's encoding (count, offsets, each element), from 0x-hex elements. */
export function bytesArrayBody(items: readonly string[]): string {
  return sizeWord(items.length) + encodeParts(items.map((item) => ({ tail: bytesBody(item) })));
}

/** bytesArrayBody of elements this process encoded itself (see encodedBytesBody). */
export function encodedBytesArrayBody(items: readonly string[]): string {
  return (
    sizeWord(items.length) + encodeParts(items.map((item) => ({ tail: encodedBytesBody(item) })))
  );
}
