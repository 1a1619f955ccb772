import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/**
 * Ethereum Attestation Service (ethereum-attestation-service/eas-contracts, contracts/IEAS.sol):
 * the attestation read, the attest/revoke writes the devnet's test attester sends, and the event.
 */
export const EAS = withCachedSelectors(
  new Interface([
    'function getAttestation(bytes32 uid) view returns ((bytes32 uid, bytes32 schema, uint64 time, uint64 expirationTime, uint64 revocationTime, bytes32 refUID, address recipient, address attester, bool revocable, bytes data))',
    'function isAttestationValid(bytes32 uid) view returns (bool)',
    'function attest((bytes32 schema, (address recipient, uint64 expirationTime, bool revocable, bytes32 refUID, bytes data, uint256 value) data) request) payable returns (bytes32)',
    'function revoke((bytes32 schema, (bytes32 uid, uint256 value) data) request) payable',
    'event Attested(address indexed recipient, address indexed attester, bytes32 uid, bytes32 indexed schemaUID)',
  ]),
);

/** EAS SchemaRegistry (contracts/ISchemaRegistry.sol). */
export const SCHEMA_REGISTRY = withCachedSelectors(
  new Interface([
    'function register(string schema, address resolver, bool revocable) returns (bytes32)',
    'function getSchema(bytes32 uid) view returns ((bytes32 uid, address resolver, bool revocable, string schema))',
  ]),
);

/**
 * Coinbase's attestation indexer interface (coinbase/verifications, IAttestationIndexer.sol and
 * AttestationIndexer.sol): the latest indexed attestation uid per (recipient, schema), written
 * only by holders of INDEXER_ROLE (AccessControl). contracts/src/AttestationIndexer.sol is the
 * devnet's twin.
 */
export const ATTESTATION_INDEXER = withCachedSelectors(
  new Interface([
    'function index(bytes32 attestationUid)',
    'function getAttestationUid(address recipient, bytes32 schemaUid) view returns (bytes32)',
    'function INDEXER_ROLE() view returns (bytes32)',
    'function hasRole(bytes32 role, address account) view returns (bool)',
    'function grantRole(bytes32 role, address account)',
    'event AttestationIndexed(address indexer, address indexed recipient, bytes32 indexed schema, bytes32 indexed attestationUid)',
    'error AttestationNotFound(bytes32 attestationUid)',
    'error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)',
  ]),
);

/**
 * A schema resolver that guards a schema by an allowlist of attesters: Coinbase's
 * CoinbaseVerificationsResolver (coinbase/verifications, AllowlistResolverUpgradeable) and the
 * devnet's twin (contracts/src/AttesterResolver.sol) both answer `allowedAttesters(address)`.
 */
export const ALLOWLIST_RESOLVER = withCachedSelectors(
  new Interface([
    'function allowedAttesters(address attester) view returns (bool)',
    'function allowAttester(address attester)',
  ]),
);
