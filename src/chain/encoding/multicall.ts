/**
 * Multicall3 aggregate3 encoding (pure). aggregate3 runs every call in ONE eth_call, at one
 * block; with allowFailure a failing call (e.g. a quote on an empty pool) does not sink the batch.
 */
import { Interface } from 'ethers';

export const MULTICALL3 = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
  'function getEthBalance(address addr) view returns (uint256 balance)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
]);

export interface Call3 {
  target: string;
  allowFailure: boolean;
  callData: string;
}

export interface Call3Result {
  success: boolean;
  returnData: string;
}

export function encodeAggregate3(calls: readonly Call3[]): string {
  return MULTICALL3.encodeFunctionData('aggregate3', [
    calls.map((c) => [c.target, c.allowFailure, c.callData]),
  ]);
}

export function decodeAggregate3(raw: string): Call3Result[] {
  const [results] = MULTICALL3.decodeFunctionResult('aggregate3', raw) as unknown as [
    Array<[boolean, string]>,
  ];
  return results.map(([success, returnData]) => ({ success, returnData }));
}
