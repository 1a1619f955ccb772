// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.26;

import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SwapParams, ModifyLiquidityParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {BeforeSwapDelta} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";

interface ISanctionsListV3 {
    function isSanctioned(address addr) external view returns (bool);
}

interface IComplianceRegistryV3 {
    function isActive(address wallet) external view returns (bool);
}

/// @dev UniversalRouter (Locker) and PositionManager (BaseActionsRouter): the router's caller.
interface IMsgSenderV3 {
    function msgSender() external view returns (address);
}

/// @title ComplianceHookV3
/// @notice Version 2's checks (allowlisted routers whose msgSender() is the trader, sanctions
/// screening failing closed, a ComplianceRegistry session, exits free unless frozen) plus, for the
/// wallets flagged `requiresAuthorization` (set by an enforcer: the service's attester, when the
/// wallet's account enforces its trade policy on chain), a per-trade EIP-712 `TradeAuthorization`
/// signed by an authorizer (owner-managed set) and carried in hookData, bound to the trader, the
/// pool, the kind of operation, the direction, the amount the pool sees, a nonce and a deadline.
/// Single use: Permit2-style unordered nonces (one bit each in a 256-bit word per wallet).
/// Two hops: the first pool's authorization also names the next pool and the most it may see
/// (`nextAmountMax`, the quoted intermediate amount plus slippage); the hook marks the route in
/// transient storage and lets the named pool through once, in the same transaction, with empty
/// hookData, for at most that amount of the currency that links the hops, in the same trade type.
/// No afterSwap: wallets that need no authorization pay nothing for routes (see
/// docs/architecture.md, "Per-trade authorization").
contract ComplianceHookV3 {
    /// @dev v4-core Hooks.sol: BEFORE_ADD_LIQUIDITY 1 << 11, BEFORE_REMOVE_LIQUIDITY 1 << 9,
    /// BEFORE_SWAP 1 << 7 (v2's); the lowest 14 bits of the address are the permissions.
    uint160 internal constant ALL_HOOK_MASK = uint160((1 << 14) - 1);
    uint160 public constant REQUIRED_FLAGS = uint160((1 << 11) | (1 << 9) | (1 << 7));
    uint8 public constant VERSION = 3;

    bytes32 public constant TRADE_AUTHORIZATION_TYPEHASH = keccak256(
        "TradeAuthorization(address trader,bytes32 poolId,uint8 kind,bool zeroForOne,int256 amount,uint256 nonce,uint256 deadline,bytes32 nextPoolId,uint256 nextAmountMax)"
    );
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    uint8 internal constant KIND_SWAP = 0;
    uint8 internal constant KIND_LIQUIDITY = 1;
    /// @dev hookData: nonce | deadline | r | yParityAndS (one pool), then nextPoolId |
    /// nextAmountMax for a route's first pool.
    uint256 internal constant HOOKDATA_BYTES = 128;
    uint256 internal constant ROUTE_HOOKDATA_BYTES = 192;

    /// @dev Transient slots (EIP-1153): the route an authorized first hop opened for its next pool.
    /// NEXT_ROUTE: keccak256(next pool, linking currency, exact input?); NEXT_TRADER: the trader
    /// (low 160 bits) and the cap (high 96 bits, clamped: a lower cap is only stricter).
    bytes32 internal constant NEXT_ROUTE = keccak256("ComplianceHookV3.nextRoute");
    bytes32 internal constant NEXT_TRADER = keccak256("ComplianceHookV3.nextTrader");
    uint256 internal constant MAX_CAP = (1 << 96) - 1;

    address public immutable poolManager;
    IComplianceRegistryV3 public immutable registry;
    address public immutable sanctionsOracle;
    bool public immutable freezeExits;
    uint256 internal immutable _cachedChainId;
    bytes32 internal immutable _cachedDomainSeparator;

    address public owner;
    mapping(address => bool) public isRouter;
    mapping(address => bool) public isQuoter;
    /// @notice Keys whose TradeAuthorizations the hook accepts (owner-managed).
    mapping(address => bool) public isAuthorizer;
    /// @notice Accounts that may set `requiresAuthorization` (the service's attester).
    mapping(address => bool) public isEnforcer;
    /// @notice Wallets that cannot swap or add liquidity without a TradeAuthorization.
    mapping(address => bool) public requiresAuthorization;
    /// @notice trader => word position => bitmap of used nonces (Permit2's unordered nonces).
    mapping(address => mapping(uint256 => uint256)) public nonceBitmap;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event RouterSet(address indexed router, bool allowed);
    event QuoterSet(address indexed quoter, bool allowed);
    event AuthorizerSet(address indexed signer, bool allowed);
    event EnforcerSet(address indexed account, bool allowed);
    event RequiredSet(address indexed wallet, bool required);
    event AuthorizationConsumed(address indexed trader, uint256 nonce);

    error SessionNotActive(address trader);
    error RouterNotAllowed(address router);
    error NotPoolManager(address caller);
    error NotOwner(address caller);
    error NotEnforcer(address caller);
    error HookAddressNotValid(address hook);
    error WalletSanctioned(address wallet);
    error AuthorizationRequired(address trader);
    error AuthorizationInvalid();
    error AuthorizationExpired();
    error AuthorizationUsed();

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
        IComplianceRegistryV3 registry_,
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
        _cachedChainId = block.chainid;
        _cachedDomainSeparator = _domainSeparator();
        emit OwnershipTransferred(address(0), owner_);
    }

    // ---------------------------------------------------------------- administration

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

    function setAuthorizer(address signer, bool allowed) external onlyOwner {
        isAuthorizer[signer] = allowed;
        emit AuthorizerSet(signer, allowed);
    }

    function setEnforcer(address account, bool allowed) external onlyOwner {
        isEnforcer[account] = allowed;
        emit EnforcerSet(account, allowed);
    }

    /// @notice Flags (or unflags) wallets as needing a TradeAuthorization for every entry.
    function setRequired(address[] calldata wallets, bool required) external {
        if (!isEnforcer[msg.sender]) revert NotEnforcer(msg.sender);
        for (uint256 i = 0; i < wallets.length; ++i) {
            requiresAuthorization[wallets[i]] = required;
            emit RequiredSet(wallets[i], required);
        }
    }

    /// @notice Whether `nonce` of `trader` was consumed (a mined trade used its authorization).
    function isNonceUsed(address trader, uint256 nonce) external view returns (bool) {
        return nonceBitmap[trader][nonce >> 8] & (1 << (nonce & 0xff)) != 0;
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return block.chainid == _cachedChainId ? _cachedDomainSeparator : _domainSeparator();
    }

    // ---------------------------------------------------------------- hook callbacks

    function beforeSwap(address sender, PoolKey calldata key, SwapParams calldata params, bytes calldata hookData)
        external
        onlyPoolManager
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        // Routers first: a swap through one reads no quoter flag (v2 read both).
        if (isRouter[sender]) {
            address trader = _requireSessionOf(sender);
            _authorizeSwap(trader, key, params, hookData);
        } else if (!isQuoter[sender]) {
            revert RouterNotAllowed(sender);
        }
        return (ComplianceHookV3.beforeSwap.selector, BeforeSwapDelta.wrap(0), 0);
    }

    function beforeAddLiquidity(
        address sender,
        PoolKey calldata key,
        ModifyLiquidityParams calldata params,
        bytes calldata hookData
    ) external onlyPoolManager returns (bytes4) {
        address trader = _requireSession(sender);
        // hookData on a v3 pool is an authorization or nothing: one given is verified whoever sends
        // it (the flag is read only when none is given).
        if (hookData.length != 0) {
            (bytes32 next,) =
                _consume(trader, _poolId(key), KIND_LIQUIDITY, false, params.liquidityDelta, hookData);
            if (next != bytes32(0)) revert AuthorizationInvalid();
        } else if (requiresAuthorization[trader]) {
            revert AuthorizationRequired(trader);
        }
        return ComplianceHookV3.beforeAddLiquidity.selector;
    }

    /// @dev Exits never need a session or an authorization; under "freeze" a sanctioned wallet's
    /// exit through an allowlisted router reverts (as v2).
    function beforeRemoveLiquidity(address sender, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        external
        view
        onlyPoolManager
        returns (bytes4)
    {
        if (freezeExits && isRouter[sender]) _requireNotSanctioned(IMsgSenderV3(sender).msgSender());
        return ComplianceHookV3.beforeRemoveLiquidity.selector;
    }

    // ---------------------------------------------------------------- internals

    /// @dev hookData on a v3 pool is an authorization or nothing. Given: verified and consumed,
    /// whoever sends it (so an authorized swap reads no flag). Empty: the second hop of an
    /// authorized route, else allowed unless the wallet is flagged.
    function _authorizeSwap(address trader, PoolKey calldata key, SwapParams calldata params, bytes calldata hookData)
        internal
    {
        bytes32 poolId = _poolId(key);
        if (hookData.length == 0) {
            if (!_continueRoute(trader, key, poolId, params) && requiresAuthorization[trader]) {
                revert AuthorizationRequired(trader);
            }
            return;
        }
        (bytes32 next, uint256 nextAmountMax) =
            _consume(trader, poolId, KIND_SWAP, params.zeroForOne, params.amountSpecified, hookData);
        if (next != bytes32(0)) {
            // The currency linking the hops: what this swap produces (exact input), or what it
            // consumes (exact output: the router swaps the route from its end).
            bool exactIn = params.amountSpecified < 0;
            address linked = Currency.unwrap(exactIn == params.zeroForOne ? key.currency1 : key.currency0);
            bytes32 route = keccak256(abi.encode(next, linked, exactIn));
            uint256 cap = nextAmountMax > MAX_CAP ? MAX_CAP : nextAmountMax;
            uint256 traderAndCap = uint256(uint160(trader)) | (cap << 160);
            bytes32 s0 = NEXT_ROUTE;
            bytes32 s1 = NEXT_TRADER;
            assembly ("memory-safe") {
                tstore(s0, route)
                tstore(s1, traderAndCap)
            }
        }
    }

    /// @dev The second hop of an authorized route: this pool must be the one the first hop named,
    /// for the same trader and trade type, spending (exact input) or buying (exact output) the
    /// currency that links the hops, at most `nextAmountMax` of it. Once. False when no route of
    /// this trader is open (the caller then reads the flag).
    function _continueRoute(address trader, PoolKey calldata key, bytes32 poolId, SwapParams calldata params)
        internal
        returns (bool)
    {
        bytes32 route;
        uint256 traderAndCap;
        bytes32 s0 = NEXT_ROUTE;
        bytes32 s1 = NEXT_TRADER;
        assembly ("memory-safe") {
            route := tload(s0)
            traderAndCap := tload(s1)
        }
        if (route == bytes32(0) || address(uint160(traderAndCap)) != trader) return false;
        bool exactIn = params.amountSpecified < 0;
        // Exact input spends the input currency; exact output buys the output currency.
        address linked = Currency.unwrap(exactIn == params.zeroForOne ? key.currency0 : key.currency1);
        uint256 amount = uint256(exactIn ? -params.amountSpecified : params.amountSpecified);
        if (route != keccak256(abi.encode(poolId, linked, exactIn)) || amount > traderAndCap >> 160) {
            revert AuthorizationInvalid();
        }
        assembly ("memory-safe") {
            tstore(s0, 0)
            tstore(s1, 0)
        }
        return true;
    }

    /// @dev Verifies hookData's TradeAuthorization for exactly this operation and consumes its
    /// nonce. Deadline first (expired), then the signature (invalid: any field differs, or the
    /// signer is not an authorizer), then the nonce (used).
    function _consume(
        address trader,
        bytes32 poolId,
        uint8 kind,
        bool zeroForOne,
        int256 amount,
        bytes calldata hookData
    ) internal returns (bytes32 next, uint256 nextAmountMax) {
        uint256 length = hookData.length;
        if (length != HOOKDATA_BYTES && length != ROUTE_HOOKDATA_BYTES) revert AuthorizationInvalid();
        uint256 nonce;
        uint256 deadline;
        assembly ("memory-safe") {
            nonce := calldataload(hookData.offset)
            deadline := calldataload(add(hookData.offset, 32))
        }
        if (length == ROUTE_HOOKDATA_BYTES) {
            assembly ("memory-safe") {
                next := calldataload(add(hookData.offset, 128))
                nextAmountMax := calldataload(add(hookData.offset, 160))
            }
            if (next == bytes32(0)) revert AuthorizationInvalid();
        }
        if (block.timestamp > deadline) revert AuthorizationExpired();
        bytes32 structHash = keccak256(
            abi.encode(
                TRADE_AUTHORIZATION_TYPEHASH,
                trader,
                poolId,
                kind,
                zeroForOne,
                amount,
                nonce,
                deadline,
                next,
                nextAmountMax
            )
        );
        _requireAuthorizer(structHash, hookData);
        _useNonce(trader, nonce);
    }

    function _requireAuthorizer(bytes32 structHash, bytes calldata hookData) internal view {
        bytes32 r;
        bytes32 vs;
        assembly ("memory-safe") {
            r := calldataload(add(hookData.offset, 64))
            vs := calldataload(add(hookData.offset, 96))
        }
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        address signer = ecrecover(
            digest,
            uint8((uint256(vs) >> 255) + 27),
            r,
            vs & bytes32(0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff)
        );
        if (signer == address(0) || !isAuthorizer[signer]) revert AuthorizationInvalid();
    }

    function _useNonce(address trader, uint256 nonce) internal {
        uint256 bit = 1 << (nonce & 0xff);
        uint256 flipped = nonceBitmap[trader][nonce >> 8] ^= bit;
        if (flipped & bit == 0) revert AuthorizationUsed();
        emit AuthorizationConsumed(trader, nonce);
    }

    function _poolId(PoolKey calldata key) internal pure returns (bytes32 id) {
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            calldatacopy(ptr, key, 0xa0)
            id := keccak256(ptr, 0xa0)
        }
    }

    function _domainSeparator() internal view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("ComplianceHook"), keccak256("3"), block.chainid, address(this))
        );
    }

    /// @dev The router must be allowlisted (so `msgSender()` can be trusted); the trader must not
    /// be sanctioned and must hold an active session.
    function _requireSession(address router) internal view returns (address trader) {
        if (!isRouter[router]) revert RouterNotAllowed(router);
        return _requireSessionOf(router);
    }

    /// @dev `router` is allowlisted: its msgSender() is the trader.
    function _requireSessionOf(address router) internal view returns (address trader) {
        trader = IMsgSenderV3(router).msgSender();
        _requireNotSanctioned(trader);
        if (!registry.isActive(trader)) revert SessionNotActive(trader);
    }

    function _requireNotSanctioned(address trader) internal view {
        address oracle = sanctionsOracle;
        if (oracle == address(0)) return;
        (bool ok, bytes memory answer) =
            oracle.staticcall(abi.encodeWithSelector(ISanctionsListV3.isSanctioned.selector, trader));
        if (!ok || answer.length != 32 || abi.decode(answer, (uint256)) != 0) revert WalletSanctioned(trader);
    }
}
