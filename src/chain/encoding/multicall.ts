/**
 * Multicall3 aggregate3 encoding (pure). aggregate3 runs every call in ONE eth_call, at one
 * block; with allowFailure a failing call (e.g. a quote on an empty pool) does not sink the batch.
 */
import { selectorOf } from '../abi/selectors';
import { MULTICALL3 } from '../abi/multicall3';
import { decodeAggregate3Result, encodeAggregate3Calldata, encodeStaticCall } from './abi-words';

export interface Call3 {
  target: string;
  allowFailure: boolean;
  callData: string;
}

export interface Call3Result {
  success: boolean;
  returnData: string;
}

/** A read that must succeed: `selector(args...)` on `target`, the args address or uint words. */
export function requiredRead(target: string, selector: string, args: string[] = []): Call3 {
  return { target, allowFailure: false, callData: encodeStaticCall(selector, args) };
}

const AGGREGATE3_SELECTOR = selectorOf(MULTICALL3, 'aggregate3');

/** Runs on every build: the Buffer-based codec (abi-words.ts) is ~50x faster than AbiCoder. */
export function encodeAggregate3(calls: readonly Call3[]): string {
  return encodeAggregate3Calldata(AGGREGATE3_SELECTOR, calls);
}

export function decodeAggregate3(raw: string): Call3Result[] {
  return decodeAggregate3Result(raw);
}
