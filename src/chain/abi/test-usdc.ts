import { Interface } from 'ethers';

/** TestUSDC (contracts/src/TestUSDC.sol): the owner's mint, beyond ERC-20 (./erc20.ts). */
export const TEST_USDC = new Interface(['function mint(address to, uint256 amount)']);
