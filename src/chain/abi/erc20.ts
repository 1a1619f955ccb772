import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/** ERC-20 (EIP-20): the fragments we encode or read. */
export const ERC20 = withCachedSelectors(
  new Interface([
    'function approve(address spender, uint256 amount) returns (bool)',
    'function allowance(address owner, address spender) view returns (uint256)',
    'function balanceOf(address owner) view returns (uint256)',
    'function decimals() view returns (uint8)',
    'function name() view returns (string)',
    'event Transfer(address indexed from, address indexed to, uint256 value)',
  ]),
);
