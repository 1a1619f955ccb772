/**
 * The code size of many addresses in ONE eth_call (pure). The call has no `to`: the node runs its
 * data as init code and answers with what that code returns ("deployless" call, as viem's
 * deployless reads). Our init code is straight-line EVM: for address k,
 * `PUSH20 address; EXTCODESIZE; PUSH2 32k; MSTORE`, then `RETURN(0, 32n)`: one word per address.
 * Multicall3 cannot answer this (it has no code-size getter), and eth_getCode would cost one
 * request per address and carry each contract's whole bytecode.
 */
import { readWord } from './abi-words';

const OP = {
  PUSH1: '60',
  PUSH2: '61',
  PUSH20: '73',
  EXTCODESIZE: '3b',
  MSTORE: '52',
  RETURN: 'f3',
};
const WORD = 32;
/** PUSH2 offsets: 2,047 addresses at most (far beyond any network file). */
const MAX_ADDRESSES = 0xffff / WORD;

function push2(value: number): string {
  return OP.PUSH2 + value.toString(16).padStart(4, '0');
}

/** The eth_call data (init code) answering the code size of each address, one word each. */
export function codeSizesCallData(addresses: readonly string[]): string {
  if (addresses.length > MAX_ADDRESSES)
    throw new RangeError(`at most ${MAX_ADDRESSES} addresses per call`);
  let code = '';
  addresses.forEach((address, k) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new TypeError(`not an address: ${address}`);
    code += OP.PUSH20 + address.slice(2).toLowerCase() + OP.EXTCODESIZE + push2(k * WORD);
    code += OP.MSTORE;
  });
  return `0x${code}${push2(addresses.length * WORD)}${OP.PUSH1}00${OP.RETURN}`;
}

/** The answer to codeSizesCallData(addresses): the code size of each, in bytes, in order. */
export function decodeCodeSizes(returnData: string, count: number): number[] {
  return Array.from({ length: count }, (_, k) => Number(readWord(returnData, k)));
}
