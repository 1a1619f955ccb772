// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IEAS, Attestation} from "@ethereum-attestation-service/eas-contracts/contracts/IEAS.sol";
import {SchemaResolver} from "@ethereum-attestation-service/eas-contracts/contracts/resolver/SchemaResolver.sol";

/// The indexer this resolver writes to (AttestationIndexer.sol; Coinbase's IAttestationIndexer).
interface IAttestationIndex {
    function index(bytes32 attestationUid) external;
}

/**
 * The devnet's twin of the resolver that guards Coinbase's Verifications schemas on Base
 * (coinbase/verifications, CoinbaseVerificationsResolver: an allowlist of attesters, then the
 * indexer): EAS calls it for every attestation of a schema registered with it, and it accepts
 * only attestations made by an allowed attester, which it indexes at once (it holds the indexer's
 * INDEXER_ROLE). Anyone else's attestation of the schema reverts in EAS. Revocation is EAS's own
 * rule (only the attester revokes). `allowedAttesters` reads as Coinbase's does, so
 * `npm run cli -- verify-network` checks both the same way.
 */
contract AttesterResolver is SchemaResolver, AccessControl {
    mapping(address attester => bool) public allowedAttesters;
    IAttestationIndex public immutable indexer;

    event AttesterAllowed(address indexed attester);
    event AttesterRemoved(address indexed attester);

    constructor(IEAS eas, IAttestationIndex indexer_, address admin, address[] memory attesters)
        SchemaResolver(eas)
    {
        indexer = indexer_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        for (uint256 i = 0; i < attesters.length; i++) _allow(attesters[i]);
    }

    function allowAttester(address attester) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _allow(attester);
    }

    function removeAttester(address attester) external onlyRole(DEFAULT_ADMIN_ROLE) {
        allowedAttesters[attester] = false;
        emit AttesterRemoved(attester);
    }

    function onAttest(Attestation calldata attestation, uint256) internal override returns (bool) {
        if (!allowedAttesters[attestation.attester]) return false;
        indexer.index(attestation.uid);
        return true;
    }

    function onRevoke(Attestation calldata, uint256) internal pure override returns (bool) {
        return true;
    }

    function _allow(address attester) private {
        allowedAttesters[attester] = true;
        emit AttesterAllowed(attester);
    }
}
