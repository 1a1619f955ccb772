/**
 * Multicall3 aggregate3 encoding (pure). aggregate3 runs every call in ONE eth_call, at one
 * block; with allowFailure a failing call (e.g. a quote on an empty pool) does not sink the batch.
 */
import { MULTICALL3 } from '../abi/multicall3';
import { decodeAggregate3Result, encodeAggregate3Calldata } from './abi-words';

export interface Call3 {
  target: string;
  allowFailure: boolean;
  callData: string;
}

export interface Call3Result {
  success: boolean;
  returnData: string;
}

const AGGREGATE3_SELECTOR = MULTICALL3.getFunction('aggregate3')!.selector;

/** Runs on every build: the Buffer-based codec (abi-words.ts) is ~50x faster than AbiCoder. */
export function encodeAggregate3(calls: readonly Call3[]): string {
  return encodeAggregate3Calldata(AGGREGATE3_SELECTOR, calls);
}

export function decodeAggregate3(raw: string): Call3Result[] {
  return decodeAggregate3Result(raw);
}
