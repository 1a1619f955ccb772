import { Interface } from 'ethers';

/** WETH9 (and the OP-stack predeploy): wrapping, beyond ERC-20 (./erc20.ts). */
export const WETH = new Interface(['function deposit() payable']);

/** WETH9's wrapping events (WETH9.sol): the receipt shows who wrapped or unwrapped how much. */
export const WETH_EVENTS = new Interface([
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
]);
