/**
 * The Uniswap v4 contracts the builders encode for or read, one Interface each, with the exact
 * signatures of the deployed contracts (sources linked); only what we use is listed.
 */
import { Interface } from 'ethers';
import { withCachedSelectors } from '../encoding/abi-words';

/** v4 PoolKey as every v4 contract spells it (v4-core src/types/PoolKey.sol). */
export const POOL_KEY_TUPLE =
  'tuple(address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks)';

/** A hop of a multi-hop path (v4-periphery src/libraries/PathKey.sol). */
export const PATH_KEY_TUPLE =
  'tuple(address intermediateCurrency, uint24 fee, int24 tickSpacing, address hooks, bytes hookData)';

/**
 * PoolManager (v4-core src/PoolManager.sol): pool initialization (deployment), and the Swap event
 * (v4-core src/interfaces/IPoolManager.sol; amounts are the swapper's balance delta: negative =
 * paid into the pool) the transaction status reads.
 */
export const POOL_MANAGER = new Interface([
  `function initialize(${POOL_KEY_TUPLE} key, uint160 sqrtPriceX96) returns (int24 tick)`,
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
]);

/** UniversalRouter 2.x (universal-router contracts/UniversalRouter.sol). */
export const UNIVERSAL_ROUTER = withCachedSelectors(
  new Interface(['function execute(bytes commands, bytes[] inputs, uint256 deadline) payable']),
);

/** PositionManager (v4-periphery src/PositionManager.sol). */
export const POSITION_MANAGER = withCachedSelectors(
  new Interface([
    'function modifyLiquidities(bytes unlockData, uint256 deadline) payable',
    'function nextTokenId() view returns (uint256)',
    'function ownerOf(uint256 tokenId) view returns (address)',
    'function getPositionLiquidity(uint256 tokenId) view returns (uint128)',
    'function multicall(bytes[] data) payable returns (bytes[] results)',
    // Permit2Forwarder (v4-periphery src/base/Permit2Forwarder.sol).
    'function permitBatch(address owner, tuple(tuple(address token, uint160 amount, uint48 expiration, uint48 nonce)[] details, address spender, uint256 sigDeadline) _permitBatch, bytes signature) payable returns (bytes err)',
    `function getPoolAndPositionInfo(uint256 tokenId) view returns (${POOL_KEY_TUPLE} poolKey, uint256 info)`,
    // ERC721 (solmate): ownerOf of a burned or never minted tokenId reverts NOT_MINTED.
    'event Transfer(address indexed from, address indexed to, uint256 indexed id)',
  ]),
);

/** V4Quoter (v4-periphery src/lens/V4Quoter.sol); non-view, but answers an eth_call. */
export const V4_QUOTER = withCachedSelectors(
  new Interface([
    `function quoteExactInputSingle(tuple(${POOL_KEY_TUPLE} poolKey, bool zeroForOne, uint128 exactAmount, bytes hookData) params) returns (uint256 amountOut, uint256 gasEstimate)`,
    `function quoteExactOutputSingle(tuple(${POOL_KEY_TUPLE} poolKey, bool zeroForOne, uint128 exactAmount, bytes hookData) params) returns (uint256 amountIn, uint256 gasEstimate)`,
    // QuoteExactParams (IV4Quoter): exactCurrency is the path's input (exact input) or output.
    `function quoteExactInput(tuple(address exactCurrency, ${PATH_KEY_TUPLE}[] path, uint128 exactAmount) params) returns (uint256 amountOut, uint256 gasEstimate)`,
    `function quoteExactOutput(tuple(address exactCurrency, ${PATH_KEY_TUPLE}[] path, uint128 exactAmount) params) returns (uint256 amountIn, uint256 gasEstimate)`,
  ]),
);

/** StateView (v4-periphery src/lens/StateView.sol). */
export const STATE_VIEW = withCachedSelectors(
  new Interface([
    'function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
    'function getLiquidity(bytes32 poolId) view returns (uint128 liquidity)',
    // The overload by position parts (the other takes a positionId).
    'function getPositionInfo(bytes32 poolId, address owner, int24 tickLower, int24 tickUpper, bytes32 salt) view returns (uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128)',
    'function getFeeGrowthInside(bytes32 poolId, int24 tickLower, int24 tickUpper) view returns (uint256 feeGrowthInside0X128, uint256 feeGrowthInside1X128)',
  ]),
);

/**
 * The v4 action plan (v4-periphery BaseActionsRouter): unlockData of modifyLiquidities and the
 * input of the UniversalRouter's V4_SWAP command are both abi.encode(bytes actions, bytes[] params).
 */
export const V4_ACTION_PLAN = ['bytes actions', 'bytes[] params'] as const;

/**
 * The params of the v4 actions the builders emit (v4-periphery src/libraries/Actions.sol and
 * CalldataDecoder.sol; the swap structs are the 2.0 layout of IV4Router, no minHopPriceX36).
 * Keyed by the action's name in @uniswap/v4-sdk's Actions enum.
 */
export const V4_ACTION_PARAMS = {
  SWAP_EXACT_IN_SINGLE: [
    `tuple(${POOL_KEY_TUPLE} poolKey, bool zeroForOne, uint128 amountIn, uint128 amountOutMinimum, bytes hookData)`,
  ],
  SWAP_EXACT_OUT_SINGLE: [
    `tuple(${POOL_KEY_TUPLE} poolKey, bool zeroForOne, uint128 amountOut, uint128 amountInMaximum, bytes hookData)`,
  ],
  // The multi-hop params in the deployed router's layout (UR 2.1.1: minHopPriceX36 per hop).
  SWAP_EXACT_IN: [
    `tuple(address currencyIn, ${PATH_KEY_TUPLE}[] path, uint256[] minHopPriceX36, uint128 amountIn, uint128 amountOutMinimum)`,
  ],
  SWAP_EXACT_OUT: [
    `tuple(address currencyOut, ${PATH_KEY_TUPLE}[] path, uint256[] minHopPriceX36, uint128 amountOut, uint128 amountInMaximum)`,
  ],
  SETTLE: ['address currency', 'uint256 amount', 'bool payerIsUser'],
  SETTLE_ALL: ['address currency', 'uint256 maxAmount'],
  TAKE: ['address currency', 'address recipient', 'uint256 amount'],
  TAKE_ALL: ['address currency', 'uint256 minAmount'],
  MINT_POSITION: [
    POOL_KEY_TUPLE,
    'int24 tickLower',
    'int24 tickUpper',
    'uint256 liquidity',
    'uint128 amount0Max',
    'uint128 amount1Max',
    'address owner',
    'bytes hookData',
  ],
  SETTLE_PAIR: ['address currency0', 'address currency1'],
  INCREASE_LIQUIDITY: [
    'uint256 tokenId',
    'uint256 liquidity',
    'uint128 amount0Max',
    'uint128 amount1Max',
    'bytes hookData',
  ],
  CLOSE_CURRENCY: ['address currency'],
  DECREASE_LIQUIDITY: [
    'uint256 tokenId',
    'uint256 liquidity',
    'uint128 amount0Min',
    'uint128 amount1Min',
    'bytes hookData',
  ],
  BURN_POSITION: ['uint256 tokenId', 'uint128 amount0Min', 'uint128 amount1Min', 'bytes hookData'],
  TAKE_PAIR: ['address currency0', 'address currency1', 'address recipient'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The inputs of the UniversalRouter commands the swap builder emits (universal-router
 * contracts/base/Dispatcher.sol), keyed by the command's name in universal-router-sdk's CommandType.
 * V4_SWAP's input is a V4_ACTION_PLAN.
 */
export const UNIVERSAL_ROUTER_INPUTS = {
  PERMIT2_PERMIT: [
    'tuple(tuple(address token, uint160 amount, uint48 expiration, uint48 nonce) details, address spender, uint256 sigDeadline) permitSingle',
    'bytes signature',
  ],
  WRAP_ETH: ['address recipient', 'uint256 amount'],
  UNWRAP_WETH: ['address recipient', 'uint256 amountMin'],
} as const satisfies Record<string, readonly string[]>;
