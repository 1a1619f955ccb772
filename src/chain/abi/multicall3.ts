import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/** Multicall3 (mds1/multicall src/Multicall3.sol): the batch and the chain-state helpers we read. */
export const MULTICALL3 = withCachedSelectors(
  new Interface([
    'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
    'function getEthBalance(address addr) view returns (uint256 balance)',
    'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
    'function getBlockNumber() view returns (uint256 blockNumber)',
  ]),
);
