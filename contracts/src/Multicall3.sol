// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.26;

/// @title Multicall3 (ABI-compatible subset, written for the devnet)
/// @notice Same function signatures as the canonical Multicall3 deployed at
/// 0xcA11bde05977b3631167028862bE2a173976CA11 on Base Sepolia, so one reader serves both the
/// devnet and public networks. Only read-style batching is needed by the service
/// (aggregate3 + block/balance getters); value-forwarding variants are intentionally omitted.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    error CallFailed(uint256 index, bytes reason);

    /// @notice Legacy batch: every call must succeed.
    function aggregate(Call[] calldata calls) external returns (uint256 blockNumber, bytes[] memory returnData) {
        blockNumber = block.number;
        returnData = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (!ok) revert CallFailed(i, ret);
            returnData[i] = ret;
        }
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) public returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess && !ok) revert CallFailed(i, ret);
            results[i] = Result(ok, ret);
        }
    }

    /// @notice Batch with a per-call failure policy; a failing call with allowFailure=false
    /// reverts the whole batch with its index and reason.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (!ok && !calls[i].allowFailure) revert CallFailed(i, ret);
            results[i] = Result(ok, ret);
        }
    }

    function getEthBalance(address account) external view returns (uint256) {
        return account.balance;
    }

    function getBlockNumber() external view returns (uint256) {
        return block.number;
    }

    function getCurrentBlockTimestamp() external view returns (uint256) {
        return block.timestamp;
    }

    function getChainId() external view returns (uint256) {
        return block.chainid;
    }

    function getBasefee() external view returns (uint256) {
        return block.basefee;
    }
}
