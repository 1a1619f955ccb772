import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/** ComplianceHook (contracts/src/ComplianceHook.sol): what the network check reads, the owner's
 * administration (deployment). */
export const COMPLIANCE_HOOK = withCachedSelectors(
  new Interface([
    'function poolManager() view returns (address)',
    'function registry() view returns (address)',
    'function isRouter(address router) view returns (bool)',
    'function isQuoter(address quoter) view returns (bool)',
    'function owner() view returns (address)',
    'function setRouter(address router, bool allowed)',
    'function setQuoter(address quoter, bool allowed)',
  ]),
);
