// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SwapParams, ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {BeforeSwapDelta} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";

/// @dev Chainalysis' SanctionsList (see SanctionsOracle.sol), called with a raw staticcall.
interface ISanctionsList {
    function isSanctioned(address addr) external view returns (bool);
}

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
/// routers may call the pool, and the trader is the router's `msgSender()`.
/// Version 2 also screens the trader against a sanctions oracle (Chainalysis' SanctionsList
/// interface; the zero address = no oracle) on swaps and liquidity additions, failing CLOSED: an
/// oracle call that reverts or answers garbage refuses the trade like a positive answer.
/// Exits (decrease, collect, burn: v4's beforeRemoveLiquidity) never need a session, so a wallet
/// whose session lapsed can always exit; with `freezeExits` (exit policy "freeze") a SANCTIONED
/// wallet's exits are refused too, as sanctions law usually asks (blocked property stays put).
/// Quoters are let through unchecked: V4Quoter reverts inside its unlock callback by design, so
/// it can price a swap but its state changes never persist.
contract ComplianceHook {
    /// @dev v4-core Hooks.sol: BEFORE_ADD_LIQUIDITY_FLAG = 1 << 11, BEFORE_SWAP_FLAG = 1 << 7;
    /// the lowest 14 bits of the hook address must equal exactly the permissions used.
    uint160 internal constant ALL_HOOK_MASK = uint160((1 << 14) - 1);
    /// BEFORE_REMOVE_LIQUIDITY_FLAG = 1 << 9 (exits: sanctions only, and only when freezing).
    uint160 public constant REQUIRED_FLAGS = uint160((1 << 11) | (1 << 9) | (1 << 7));
    uint8 public constant VERSION = 2;

    address public immutable poolManager;
    IComplianceRegistry public immutable registry;
    /// @notice Zero: no sanctions screening.
    address public immutable sanctionsOracle;
    /// @notice Exit policy "freeze": a sanctioned wallet cannot remove liquidity either.
    bool public immutable freezeExits;
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
    error WalletSanctioned(address wallet);

    modifier onlyPoolManager() {
        if (msg.sender != poolManager) revert NotPoolManager(msg.sender);
        _;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    constructor(
        address poolManager_,
        IComplianceRegistry registry_,
        address owner_,
        address sanctionsOracle_,
        bool freezeExits_
    ) {
        if (uint160(address(this)) & ALL_HOOK_MASK != REQUIRED_FLAGS) revert HookAddressNotValid(address(this));
        poolManager = poolManager_;
        registry = registry_;
        sanctionsOracle = sanctionsOracle_;
        freezeExits = freezeExits_;
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

    /// @dev Exits need no session. Under "freeze", a sanctioned wallet's exit through an allowlisted
    /// router reverts; liquidity another contract owns is not ours to screen (our users' positions
    /// are held by the allowlisted PositionManager).
    function beforeRemoveLiquidity(address sender, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        external
        view
        onlyPoolManager
        returns (bytes4)
    {
        if (freezeExits && isRouter[sender]) _requireNotSanctioned(IMsgSender(sender).msgSender());
        return ComplianceHook.beforeRemoveLiquidity.selector;
    }

    /// @dev The router must be allowlisted (so `msgSender()` can be trusted), and the wallet that
    /// called it must hold an active session.
    function _requireSession(address router) internal view {
        if (!isRouter[router]) revert RouterNotAllowed(router);
        address trader = IMsgSender(router).msgSender();
        // Sanctions first: a listed wallet is refused as such, session or not.
        _requireNotSanctioned(trader);
        if (!registry.isActive(trader)) revert SessionNotActive(trader);
    }

    /// @dev One staticcall to the oracle. Fail closed: a call that reverts, or returns anything but
    /// an ABI-encoded `false`, counts as sanctioned.
    function _requireNotSanctioned(address trader) internal view {
        address oracle = sanctionsOracle;
        if (oracle == address(0)) return;
        (bool ok, bytes memory answer) =
            oracle.staticcall(abi.encodeWithSelector(ISanctionsList.isSanctioned.selector, trader));
        if (!ok || answer.length != 32 || abi.decode(answer, (uint256)) != 0) revert WalletSanctioned(trader);
    }
}
