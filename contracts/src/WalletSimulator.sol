// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.26;

interface IERC20Balance {
    function balanceOf(address owner) external view returns (uint256);
}

/// @title WalletSimulator
/// @notice Never deployed. A compliance receipt's simulation (issue 56) puts this runtime code at
/// the wallet's own address with eth_call's state override (the third eth_call parameter, served
/// by geth, op-geth, reth, Nethermind and Hardhat's EDR alike) and calls `simulate` from the
/// wallet to itself: every built call then runs with `msg.sender == wallet`, as the signed
/// transactions will, against the state of one block, and the balances after them come back in
/// the same answer. Nothing is written: it is an eth_call.
/// @dev An EOA with code would change what contracts see of it, so the rest of this contract keeps
/// the wallet behaving as the EOA it is:
/// - Permit2 checks a permit's signature with ERC-1271 when the signer has code. `isValidSignature`
///   applies the checks Permit2's SignatureVerification applies to an EOA (65-byte or EIP-2098
///   64-byte signatures, ecrecover must give this address), so a signed permit passes exactly
///   when it would pass for the EOA, and a wrong one still reverts.
/// - A transfer of ETH to it (the router unwrapping WETH) succeeds, as it does to an EOA.
/// - `onERC721Received` answers its selector, as `safeTransferFrom` to an EOA needs no answer.
/// - Any other call succeeds with no data, as a call to an EOA does.
contract WalletSimulator {
    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    /// @notice Call `index` reverted; `reason` is its revert data, as is.
    error CallReverted(uint256 index, bytes reason);
    /// @notice `simulate` was called by someone other than the wallet itself.
    error NotSelf();

    bytes32 private constant UPPER_BIT_MASK =
        0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;

    /// @notice Runs `calls` in order from this wallet and answers, after all of them, the balance
    /// of each of `tokens` (the zero address: ETH), and the gas each call used as measured around
    /// its CALL (its target warmed first, as a transaction's `to` is).
    function simulate(Call[] calldata calls, address[] calldata tokens)
        external
        returns (uint256[] memory balancesAfter, uint256[] memory gasUsed)
    {
        if (msg.sender != address(this)) revert NotSelf();
        gasUsed = new uint256[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            address to = calls[i].to;
            uint256 value = calls[i].value;
            bytes memory data = calls[i].data;
            bool ok;
            uint256 used;
            assembly {
                // Warm the target first (a transaction's `to` is warm), in a way the optimizer
                // keeps: an unused extcodehash is removed as free of side effects.
                if eq(extcodehash(to), 1) { invalid() }
                let start := gas()
                ok := call(gas(), to, value, add(data, 0x20), mload(data), 0, 0)
                used := sub(start, gas())
            }
            if (!ok) {
                bytes memory reason;
                assembly {
                    reason := mload(0x40)
                    mstore(reason, returndatasize())
                    returndatacopy(add(reason, 0x20), 0, returndatasize())
                    mstore(0x40, add(add(reason, 0x20), returndatasize()))
                }
                revert CallReverted(i, reason);
            }
            gasUsed[i] = used;
        }
        balancesAfter = new uint256[](tokens.length);
        for (uint256 j = 0; j < tokens.length; ++j) {
            balancesAfter[j] = tokens[j] == address(0)
                ? address(this).balance
                : IERC20Balance(tokens[j]).balanceOf(address(this));
        }
    }

    /// @notice ERC-1271, as Permit2's SignatureVerification checks an EOA's signature.
    function isValidSignature(bytes32 hash, bytes calldata signature)
        external
        view
        returns (bytes4)
    {
        bytes32 r;
        bytes32 s;
        uint8 v;
        if (signature.length == 65) {
            (r, s) = abi.decode(signature, (bytes32, bytes32));
            v = uint8(signature[64]);
        } else if (signature.length == 64) {
            bytes32 vs;
            (r, vs) = abi.decode(signature, (bytes32, bytes32));
            s = vs & UPPER_BIT_MASK;
            v = uint8(uint256(vs >> 255)) + 27;
        } else {
            return 0xffffffff;
        }
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == address(this)
            ? this.isValidSignature.selector
            : bytes4(0xffffffff);
    }

    function onERC721Received(address, address, uint256, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return this.onERC721Received.selector;
    }

    receive() external payable {}

    fallback() external payable {}
}
