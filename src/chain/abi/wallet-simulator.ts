import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/**
 * WalletSimulator (contracts/src/WalletSimulator.sol): never deployed; placed at a wallet's address
 * by eth_call's state override to run a build's calls from it and read the balances after them.
 */
export const WALLET_SIMULATOR = withCachedSelectors(
  new Interface([
    'function simulate((address to, uint256 value, bytes data)[] calls, address[] tokens) returns (uint256[] balancesAfter, uint256[] gasUsed)',
    'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
    'function onERC721Received(address, address, uint256, bytes) pure returns (bytes4)',
    'error CallReverted(uint256 index, bytes reason)',
    'error NotSelf()',
  ]),
);
