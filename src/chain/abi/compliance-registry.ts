import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/** ComplianceRegistry (contracts/src/ComplianceRegistry.sol): session reads, attester writes, the owner's administration (deployment), errors. */
export const COMPLIANCE_REGISTRY = withCachedSelectors(
  new Interface([
    'function activeUntil(address wallet) view returns (uint64)',
    'function isActive(address wallet) view returns (bool)',
    'function isAttester(address attester) view returns (bool)',
    'function owner() view returns (address)',
    'function activate(address wallet, uint64 until)',
    'function setAttester(address attester, bool allowed)',
    'function revoke(address wallet)',
    'error NotAttester(address caller)',
    'error ExpiryNotInFuture(uint64 until)',
    'error ZeroAddress()',
  ]),
);
