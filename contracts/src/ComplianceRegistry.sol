// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.26;

/// @title ComplianceRegistry
/// @notice Per-wallet compliance sessions. A session is a single expiry timestamp: the wallet is
/// active while `block.timestamp < activeUntil[wallet]`. Attesters (the service's key) open and
/// revoke sessions; the owner manages attesters. Kept deliberately minimal: the hook reads it on
/// every swap, so `isActive` must stay one SLOAD.
contract ComplianceRegistry {
    address public owner;
    mapping(address => bool) public isAttester;
    mapping(address => uint64) public activeUntil;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event AttesterSet(address indexed attester, bool allowed);
    event SessionActivated(address indexed wallet, uint64 activeUntil, address indexed attester);
    event SessionRevoked(address indexed wallet, address indexed attester);

    error NotOwner(address caller);
    error NotAttester(address caller);
    error ZeroAddress();
    error ExpiryNotInFuture(uint64 until);

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    modifier onlyAttester() {
        if (!isAttester[msg.sender]) revert NotAttester(msg.sender);
        _;
    }

    constructor(address initialOwner, address initialAttester) {
        if (initialOwner == address(0)) revert ZeroAddress();
        owner = initialOwner;
        emit OwnershipTransferred(address(0), initialOwner);
        if (initialAttester != address(0)) {
            isAttester[initialAttester] = true;
            emit AttesterSet(initialAttester, true);
        }
    }

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setAttester(address attester, bool allowed) external onlyOwner {
        if (attester == address(0)) revert ZeroAddress();
        isAttester[attester] = allowed;
        emit AttesterSet(attester, allowed);
    }

    /// @notice Opens (or extends, or shortens) the session of `wallet` until `until` (unix seconds).
    function activate(address wallet, uint64 until) external onlyAttester {
        if (wallet == address(0)) revert ZeroAddress();
        if (until <= block.timestamp) revert ExpiryNotInFuture(until);
        activeUntil[wallet] = until;
        emit SessionActivated(wallet, until, msg.sender);
    }

    function revoke(address wallet) external onlyAttester {
        activeUntil[wallet] = 0;
        emit SessionRevoked(wallet, msg.sender);
    }

    function isActive(address wallet) external view returns (bool) {
        return block.timestamp < activeUntil[wallet];
    }
}
