// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.26;

/// @notice Chainalysis' on-chain sanctions oracle interface (`SanctionsList`): the hook and the
/// service only ever call `isSanctioned`.
interface SanctionsList {
    function isSanctioned(address addr) external view returns (bool);
}

/// @title SanctionsOracle
/// @notice The devnet's stand-in for Chainalysis' oracle: same `isSanctioned` interface, but its
/// owner adds and removes addresses (`npm run cli -- sanctions add|remove|list`). Deployed by the
/// embedded devnet and `npm run devnet -- --bare`; a real network names Chainalysis' oracle instead.
contract SanctionsOracle is SanctionsList {
    address public owner;
    mapping(address => bool) private sanctioned;
    address[] private listed;
    mapping(address => uint256) private listIndex; // 1-based position in `listed`, 0 = absent

    event SanctionedAddressesAdded(address[] addrs);
    event SanctionedAddressesRemoved(address[] addrs);

    error NotOwner(address caller);

    constructor(address owner_) {
        owner = owner_;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    function addToSanctionsList(address[] calldata addrs) external onlyOwner {
        for (uint256 i = 0; i < addrs.length; i++) {
            address a = addrs[i];
            if (sanctioned[a]) continue;
            sanctioned[a] = true;
            listed.push(a);
            listIndex[a] = listed.length;
        }
        emit SanctionedAddressesAdded(addrs);
    }

    function removeFromSanctionsList(address[] calldata addrs) external onlyOwner {
        for (uint256 i = 0; i < addrs.length; i++) {
            address a = addrs[i];
            if (!sanctioned[a]) continue;
            sanctioned[a] = false;
            uint256 at = listIndex[a] - 1;
            address last = listed[listed.length - 1];
            listed[at] = last;
            listIndex[last] = at + 1;
            listed.pop();
            listIndex[a] = 0;
        }
        emit SanctionedAddressesRemoved(addrs);
    }

    function isSanctioned(address addr) external view returns (bool) {
        return sanctioned[addr];
    }

    function sanctionedAddresses() external view returns (address[] memory) {
        return listed;
    }
}
