// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SwapParams, ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {BeforeSwapDelta} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";

interface IComplianceRegistry {
    function isActive(address wallet) external view returns (bool);
}

/// @dev Implemented by UniversalRouter (Locker) and PositionManager (BaseActionsRouter):
/// returns the account that called the router, i.e. the real trader.
interface IMsgSender {
    function msgSender() external view returns (address);
}

/// @title ComplianceHook
/// @notice Uniswap v4 hook gating swaps and liquidity additions on a ComplianceRegistry session.
/// Identity never comes from hookData (anyone could put another wallet there): only allowlisted
/// routers may call the pool, and the trader is the router's `msgSender()`. Removing liquidity
/// is NOT hooked, so a wallet whose session lapsed can always exit its positions.
/// Quoters are let through unchecked: V4Quoter reverts inside its unlock callback by design, so
/// it can price a swap but its state changes never persist.
contract ComplianceHook {
    /// @dev v4-core Hooks.sol: BEFORE_ADD_LIQUIDITY_FLAG = 1 << 11, BEFORE_SWAP_FLAG = 1 << 7;
    /// the lowest 14 bits of the hook address must equal exactly the permissions used.
    uint160 internal constant ALL_HOOK_MASK = uint160((1 << 14) - 1);
    uint160 public constant REQUIRED_FLAGS = uint160((1 << 11) | (1 << 7));

    address public immutable poolManager;
    IComplianceRegistry public immutable registry;
    address public owner;
    mapping(address => bool) public isRouter;
    mapping(address => bool) public isQuoter;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event RouterSet(address indexed router, bool allowed);
    event QuoterSet(address indexed quoter, bool allowed);

    error SessionNotActive(address trader);
    error RouterNotAllowed(address router);
    error NotPoolManager(address caller);
    error NotOwner(address caller);
    error HookAddressNotValid(address hook);

    modifier onlyPoolManager() {
        if (msg.sender != poolManager) revert NotPoolManager(msg.sender);
        _;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    constructor(address poolManager_, IComplianceRegistry registry_, address owner_) {
        if (uint160(address(this)) & ALL_HOOK_MASK != REQUIRED_FLAGS) revert HookAddressNotValid(address(this));
        poolManager = poolManager_;
        registry = registry_;
        owner = owner_;
        emit OwnershipTransferred(address(0), owner_);
    }

    function transferOwnership(address newOwner) external onlyOwner {
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setRouter(address router, bool allowed) external onlyOwner {
        isRouter[router] = allowed;
        emit RouterSet(router, allowed);
    }

    function setQuoter(address quoter, bool allowed) external onlyOwner {
        isQuoter[quoter] = allowed;
        emit QuoterSet(quoter, allowed);
    }

    function beforeSwap(address sender, PoolKey calldata, SwapParams calldata, bytes calldata)
        external
        view
        onlyPoolManager
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        if (!isQuoter[sender]) _requireSession(sender);
        return (ComplianceHook.beforeSwap.selector, BeforeSwapDelta.wrap(0), 0);
    }

    function beforeAddLiquidity(address sender, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        external
        view
        onlyPoolManager
        returns (bytes4)
    {
        _requireSession(sender);
        return ComplianceHook.beforeAddLiquidity.selector;
    }

    /// @dev The router must be allowlisted (so `msgSender()` can be trusted), and the wallet that
    /// called it must hold an active session.
    function _requireSession(address router) internal view {
        if (!isRouter[router]) revert RouterNotAllowed(router);
        address trader = IMsgSender(router).msgSender();
        if (!registry.isActive(trader)) revert SessionNotActive(trader);
    }
}
