import { Interface } from 'ethers';

/**
 * TestToken (contracts/src/TestToken.sol): the test tokens of a market (tWBTC, tEURC), the
 * owner's mint beyond ERC-20 (./erc20.ts). Constructor: (name, symbol, decimals, owner).
 */
export const TEST_TOKEN = new Interface([
  'constructor(string name, string symbol, uint8 decimals, address owner)',
  'function mint(address to, uint256 amount)',
]);
