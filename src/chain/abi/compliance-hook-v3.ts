import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/**
 * ComplianceHookV3 (contracts/src/ComplianceHookV3.sol): v2's reads and administration, plus the
 * per-trade authorization (issue 54): the authorizer set (owner), the per-wallet "requires an
 * authorization" flag (enforcers: the service's attester), the nonce bitmap and its event.
 */
export const COMPLIANCE_HOOK_V3 = withCachedSelectors(
  new Interface([
    'function VERSION() view returns (uint8)',
    'function poolManager() view returns (address)',
    'function registry() view returns (address)',
    'function isRouter(address router) view returns (bool)',
    'function isQuoter(address quoter) view returns (bool)',
    'function owner() view returns (address)',
    'function setRouter(address router, bool allowed)',
    'function setQuoter(address quoter, bool allowed)',
    'function isAuthorizer(address signer) view returns (bool)',
    'function setAuthorizer(address signer, bool allowed)',
    'function isEnforcer(address account) view returns (bool)',
    'function setEnforcer(address account, bool allowed)',
    'function requiresAuthorization(address wallet) view returns (bool)',
    'function setRequired(address[] wallets, bool required)',
    'function nonceBitmap(address trader, uint256 wordPos) view returns (uint256)',
    'function isNonceUsed(address trader, uint256 nonce) view returns (bool)',
    'function DOMAIN_SEPARATOR() view returns (bytes32)',
    'event AuthorizationConsumed(address indexed trader, uint256 nonce)',
    'event RequiredSet(address indexed wallet, bool required)',
    'event AuthorizerSet(address indexed signer, bool allowed)',
    'event EnforcerSet(address indexed account, bool allowed)',
    'error AuthorizationRequired(address trader)',
    'error AuthorizationInvalid()',
    'error AuthorizationExpired()',
    'error AuthorizationUsed()',
    'error NotEnforcer(address caller)',
  ]),
);
