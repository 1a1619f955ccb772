import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/** Permit2 AllowanceTransfer (Uniswap/permit2 src/interfaces/IAllowanceTransfer.sol). */
export const PERMIT2 = withCachedSelectors(
  new Interface([
    'function approve(address token, address spender, uint160 amount, uint48 expiration)',
    'function allowance(address user, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)',
  ]),
);
