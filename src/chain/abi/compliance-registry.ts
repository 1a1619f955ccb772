import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/** ComplianceRegistry (contracts/src/ComplianceRegistry.sol): session reads, attester writes, errors. */
export const COMPLIANCE_REGISTRY = withCachedSelectors(
  new Interface([
    'function activeUntil(address wallet) view returns (uint64)',
    'function activate(address wallet, uint64 until)',
    'function revoke(address wallet)',
    'error NotAttester(address caller)',
    'error ExpiryNotInFuture(uint64 until)',
    'error ZeroAddress()',
  ]),
);
