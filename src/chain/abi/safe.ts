/**
 * Safe v1.4.1 (safe-global/safe-smart-account, tag v1.4.1): the functions the service encodes,
 * reads or checks, with the exact signatures of the deployed contracts; only what we use is listed.
 */
import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/**
 * Safe / SafeL2 (contracts/Safe.sol, OwnerManager.sol, StorageAccessible.sol) and the proxy's own
 * `masterCopy()` (contracts/proxies/SafeProxy.sol answers it with the singleton, before delegating).
 */
export const SAFE = withCachedSelectors(
  new Interface([
    'function setup(address[] _owners, uint256 _threshold, address to, bytes data, address fallbackHandler, address paymentToken, uint256 payment, address paymentReceiver)',
    'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
    'function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 _nonce) view returns (bytes32)',
    'function nonce() view returns (uint256)',
    'function getThreshold() view returns (uint256)',
    'function getOwners() view returns (address[])',
    'function masterCopy() view returns (address)',
    'function getStorageAt(uint256 offset, uint256 length) view returns (bytes)',
    'event ExecutionSuccess(bytes32 txHash, uint256 payment)',
    'event ExecutionFailure(bytes32 txHash, uint256 payment)',
  ]),
);

/** SafeProxyFactory (contracts/proxies/SafeProxyFactory.sol). */
export const SAFE_PROXY_FACTORY = new Interface([
  'function createProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns (address proxy)',
  'function proxyCreationCode() pure returns (bytes)',
  'event ProxyCreation(address indexed proxy, address singleton)',
]);

/** MultiSendCallOnly (contracts/libraries/MultiSendCallOnly.sol): delegatecalled by the Safe. */
export const MULTI_SEND_CALL_ONLY = withCachedSelectors(
  new Interface(['function multiSend(bytes transactions) payable']),
);

/**
 * ERC-1271 (https://eips.ethereum.org/EIPS/eip-1271): a contract account answers 0x1626ba7e for
 * a signature it accepts over a 32-byte hash. A Safe answers through its
 * CompatibilityFallbackHandler, checking the owners' signatures against its threshold.
 */
export const ERC1271 = withCachedSelectors(
  new Interface([
    'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4 magicValue)',
  ]),
);
export const ERC1271_MAGIC_VALUE = '0x1626ba7e';
