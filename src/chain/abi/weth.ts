import { Interface } from 'ethers';

/** WETH9 (and the OP-stack predeploy): wrapping, beyond ERC-20 (./erc20.ts). */
export const WETH = new Interface(['function deposit() payable']);
