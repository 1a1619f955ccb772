/**
 * Minimal hand-encoders for the contract tests (the service's builders live in
 * src/defi-builder): a UniversalRouter V4_SWAP exact-in-single and PositionManager mint/decrease.
 * Layouts: v4-periphery Actions.sol / IV4Router.sol, universal-router Commands.sol (2.0 layout).
 */
import { AbiCoder, Interface } from 'ethers';
import type { PoolKeyInfo } from '../../src/chain/network/network.types';

const coder = AbiCoder.defaultAbiCoder();
const POOL_KEY = 'tuple(address,address,uint24,int24,address)';
export const UNIVERSAL_ROUTER = new Interface([
  'function execute(bytes commands, bytes[] inputs, uint256 deadline) payable',
]);
export const POSITION_MANAGER = new Interface([
  'function modifyLiquidities(bytes unlockData, uint256 deadline) payable',
  'function nextTokenId() view returns (uint256)',
  'function getPositionLiquidity(uint256 tokenId) view returns (uint128)',
  'function ownerOf(uint256 tokenId) view returns (address)',
]);
export const V4_QUOTER = new Interface([
  'function quoteExactInputSingle((' +
    POOL_KEY +
    ' poolKey, bool zeroForOne, uint128 exactAmount, bytes hookData) params) returns (uint256 amountOut, uint256 gasEstimate)',
]);
export const ERC20 = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);
export const PERMIT2 = new Interface([
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
]);

export const keyTuple = (k: PoolKeyInfo) => [
  k.currency0,
  k.currency1,
  k.fee,
  k.tickSpacing,
  k.hooks,
];
const FAR_DEADLINE = 2n ** 40n;

export function swapExactInSingle(
  key: PoolKeyInfo,
  zeroForOne: boolean,
  amountIn: bigint,
  hookData = '0x',
): string {
  const [payCurrency, takeCurrency] = zeroForOne
    ? [key.currency0, key.currency1]
    : [key.currency1, key.currency0];
  const params = [
    coder.encode(
      [`tuple(${POOL_KEY},bool,uint128,uint128,bytes)`],
      [[keyTuple(key), zeroForOne, amountIn, 0n, hookData]],
    ),
    coder.encode(['address', 'uint256'], [payCurrency, amountIn]), // SETTLE_ALL
    coder.encode(['address', 'uint256'], [takeCurrency, 0n]), // TAKE_ALL
  ];
  const v4Input = coder.encode(['bytes', 'bytes[]'], ['0x060c0f', params]);
  return UNIVERSAL_ROUTER.encodeFunctionData('execute', ['0x10', [v4Input], FAR_DEADLINE]); // V4_SWAP
}

export function mintPosition(
  key: PoolKeyInfo,
  tickLower: number,
  tickUpper: number,
  liquidity: bigint,
  owner: string,
  max0: bigint,
  max1: bigint,
): string {
  const mint = coder.encode(
    [POOL_KEY, 'int24', 'int24', 'uint256', 'uint128', 'uint128', 'address', 'bytes'],
    [keyTuple(key), tickLower, tickUpper, liquidity, max0, max1, owner, '0x'],
  );
  const settle = coder.encode(['address', 'address'], [key.currency0, key.currency1]);
  return POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [
    coder.encode(['bytes', 'bytes[]'], ['0x020d', [mint, settle]]),
    FAR_DEADLINE,
  ]);
}

export function decreaseAndTake(
  key: PoolKeyInfo,
  tokenId: bigint,
  liquidity: bigint,
  recipient: string,
): string {
  const decrease = coder.encode(
    ['uint256', 'uint256', 'uint128', 'uint128', 'bytes'],
    [tokenId, liquidity, 0n, 0n, '0x'],
  );
  const take = coder.encode(
    ['address', 'address', 'address'],
    [key.currency0, key.currency1, recipient],
  );
  return POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [
    coder.encode(['bytes', 'bytes[]'], ['0x0111', [decrease, take]]),
    FAR_DEADLINE,
  ]);
}

export function quoteExactInputSingle(
  key: PoolKeyInfo,
  zeroForOne: boolean,
  amount: bigint,
): string {
  return V4_QUOTER.encodeFunctionData('quoteExactInputSingle', [
    [keyTuple(key), zeroForOne, amount, '0x'],
  ]);
}

/** BURN_POSITION (0x03: takes out whatever liquidity is left, burns the NFT) + TAKE_PAIR to `recipient`. */
export function burnAndTake(key: PoolKeyInfo, tokenId: bigint, recipient: string): string {
  const burn = coder.encode(['uint256', 'uint128', 'uint128', 'bytes'], [tokenId, 0n, 0n, '0x']);
  const take = coder.encode(
    ['address', 'address', 'address'],
    [key.currency0, key.currency1, recipient],
  );
  return POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [
    coder.encode(['bytes', 'bytes[]'], ['0x0311', [burn, take]]),
    FAR_DEADLINE,
  ]);
}

/** INCREASE_LIQUIDITY (0x00) with `hookData` + SETTLE_PAIR (0x0d): adds to an existing position. */
export function increasePosition(
  key: PoolKeyInfo,
  tokenId: bigint,
  liquidity: bigint,
  max0: bigint,
  max1: bigint,
  hookData = '0x',
): string {
  const increase = coder.encode(
    ['uint256', 'uint256', 'uint128', 'uint128', 'bytes'],
    [tokenId, liquidity, max0, max1, hookData],
  );
  const settle = coder.encode(['address', 'address'], [key.currency0, key.currency1]);
  return POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [
    coder.encode(['bytes', 'bytes[]'], ['0x000d', [increase, settle]]),
    FAR_DEADLINE,
  ]);
}

/** MINT_POSITION with `hookData` + SETTLE_PAIR. */
export function mintPositionWith(
  key: PoolKeyInfo,
  liquidity: bigint,
  owner: string,
  hookData: string,
): string {
  const mint = coder.encode(
    [POOL_KEY, 'int24', 'int24', 'uint256', 'uint128', 'uint128', 'address', 'bytes'],
    [keyTuple(key), -887220, 887220, liquidity, 10n ** 18n, 10n ** 10n, owner, hookData],
  );
  const settle = coder.encode(['address', 'address'], [key.currency0, key.currency1]);
  return POSITION_MANAGER.encodeFunctionData('modifyLiquidities', [
    coder.encode(['bytes', 'bytes[]'], ['0x020d', [mint, settle]]),
    FAR_DEADLINE,
  ]);
}
