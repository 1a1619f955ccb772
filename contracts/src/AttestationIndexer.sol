// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

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
 * The devnet's stand-in for Coinbase's attestation indexer (coinbase/verifications,
 * IAttestationIndexer): the latest indexed attestation uid per (recipient, schema). Anyone may
 * index an attestation that exists in EAS; what it says is read from EAS, never from the caller,
 * so the index is only a pointer: the service checks attester, schema, expiry and revocation itself.
 */
contract AttestationIndexer {
    IEASAttestations public immutable eas;

    mapping(address recipient => mapping(bytes32 schema => bytes32 uid)) private latest;

    event AttestationIndexed(
        address indexed recipient,
        bytes32 indexed schema,
        bytes32 indexed attestationUid
    );

    error AttestationNotFound(bytes32 attestationUid);

    constructor(IEASAttestations eas_) {
        eas = eas_;
    }

    function index(bytes32 attestationUid) external {
        IEASAttestations.Attestation memory a = eas.getAttestation(attestationUid);
        if (a.uid == bytes32(0)) revert AttestationNotFound(attestationUid);
        latest[a.recipient][a.schema] = attestationUid;
        emit AttestationIndexed(a.recipient, a.schema, attestationUid);
    }

    function getAttestationUid(address recipient, bytes32 schemaUid) external view returns (bytes32) {
        return latest[recipient][schemaUid];
    }
}
