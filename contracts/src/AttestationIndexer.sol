// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// The slice of EAS (github.com/ethereum-attestation-service/eas-contracts, IEAS.sol) read here.
interface IEASAttestations {
    struct Attestation {
        bytes32 uid;
        bytes32 schema;
        uint64 time;
        uint64 expirationTime;
        uint64 revocationTime;
        bytes32 refUID;
        address recipient;
        address attester;
        bool revocable;
        bytes data;
    }

    function getAttestation(bytes32 uid) external view returns (Attestation memory);
}

/**
 * The devnet's twin of Coinbase's attestation indexer on Base (coinbase/verifications,
 * IAttestationIndexer): the latest indexed attestation uid per (recipient, schema). As on Base,
 * only holders of INDEXER_ROLE may index (the schema resolver that guards the schemas holds it and
 * indexes each accepted attestation as it is made), and only an attestation that exists, has a
 * recipient and is neither revoked nor expired. What an attestation says is read from EAS, never
 * from the caller: the index is a pointer, and the service does not depend on it (it keeps its own
 * index of the accepted attesters' attestations, src/compliance/attestations).
 */
contract AttestationIndexer is AccessControl {
    /// The role id Coinbase's indexer uses, so that role checks read the same on both chains.
    bytes32 public constant INDEXER_ROLE = keccak256("cbattestations.attestationindexer.indexer");

    IEASAttestations public immutable eas;

    mapping(address recipient => mapping(bytes32 schema => bytes32 uid)) private latest;

    /// Coinbase's event (IAttestationIndexer.AttestationIndexed).
    event AttestationIndexed(
        address indexer,
        address indexed recipient,
        bytes32 indexed schema,
        bytes32 indexed attestationUid
    );

    error AttestationNotFound(bytes32 attestationUid);
    error AttestationMissingRecipient(bytes32 attestationUid);
    error AttestationRevoked(bytes32 attestationUid, uint64 revocationTime);
    error AttestationExpired(bytes32 attestationUid, uint64 expirationTime);

    constructor(IEASAttestations eas_, address admin) {
        eas = eas_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    function index(bytes32 attestationUid) external onlyRole(INDEXER_ROLE) {
        IEASAttestations.Attestation memory a = eas.getAttestation(attestationUid);
        if (a.uid == bytes32(0)) revert AttestationNotFound(attestationUid);
        if (a.recipient == address(0)) revert AttestationMissingRecipient(attestationUid);
        if (a.revocationTime != 0) revert AttestationRevoked(attestationUid, a.revocationTime);
        if (a.expirationTime != 0 && a.expirationTime <= block.timestamp)
            revert AttestationExpired(attestationUid, a.expirationTime);
        latest[a.recipient][a.schema] = attestationUid;
        emit AttestationIndexed(msg.sender, a.recipient, a.schema, attestationUid);
    }

    function getAttestationUid(address recipient, bytes32 schemaUid) external view returns (bytes32) {
        return latest[recipient][schemaUid];
    }
}
