/**
 * Gas figures used when eth_estimateGas cannot run (no session yet, or approvals still pending:
 * the estimate would only revert). Each is the gas used measured on the embedded devnet
 * (test/defi-builder/swap.e2e-spec.ts and test/defi-builder/liquidity.e2e-spec.ts log the live figures) times a buffer, rounded up.
 *
 * Measured (Hardhat EDR, cancun, WETH/tUSDC pool with ComplianceHook, cold first use per wallet):
 *   swap exact-in single (UniversalRouter V4_SWAP), 0.1 WETH  151,081
 *   swap with native ETH: WRAP_ETH in (139,256) / UNWRAP_WETH out (174,312)  174,312
 *   PERMIT2_PERMIT + swap (first permit of the wallet)           168,375
 *   (test/defi-builder/swap-trades.e2e-spec.ts logs these)
 *   two-hop swap (SWAP_EXACT_IN over tWBTC/WETH, WETH/tUSDC)      215,244
 *   (test/defi-builder/routes.e2e-spec.ts logs it)
 *   PositionManager multicall(permitBatch, MINT+SETTLE_PAIR)     325,796 (defi-mint-permit)
 *   mint position (PositionManager MINT+SETTLE_PAIR), new ticks  315,715
 *   increase (INCREASE_LIQUIDITY + CLOSE_CURRENCY x2), fees owed 193,216
 *   decrease 50 % (DECREASE_LIQUIDITY + TAKE_PAIR)              137,393
 *   decrease the rest + burn (BURN_POSITION + TAKE_PAIR)        129,107
 *   collect (DECREASE_LIQUIDITY 0 + TAKE_PAIR)                   79,513
 *   (test/defi-builder/positions.e2e-spec.ts logs these; exits are always simulated, as they need no session)
 *   ERC20.approve(Permit2, max)                                 46,143
 *   Permit2.approve(token, spender, max160, expiry)             47,794
 * The 30 % buffer covers what the measurement does not: swaps crossing initialized ticks, a
 * first mint into cold storage slots, and other chains' slightly different warm/cold costs.
 */
export const CALIBRATED_BUFFER_PERCENT = 30n;
/** Buffer added on top of a live eth_estimateGas figure (state can move between build and broadcast). */
export const ESTIMATE_BUFFER_PERCENT = 20n;

export const MEASURED_GAS = {
  swap: 151_081n,
  swapNative: 174_312n,
  swapPermit: 168_375n,
  swapTwoHop: 215_244n,
  mint: 315_715n,
  mintPermit: 325_796n,
  increase: 193_216n,
  decrease: 137_393n,
  burn: 129_107n,
  collect: 79_513n,
  erc20Approve: 46_143n,
  permit2Approve: 47_794n,
} as const;

export function withBuffer(gas: bigint, percent: bigint): bigint {
  return (gas * (100n + percent) + 99n) / 100n;
}

export const CALIBRATED_GAS = Object.fromEntries(
  Object.entries(MEASURED_GAS).map(([k, v]) => [k, withBuffer(v, CALIBRATED_BUFFER_PERCENT)]),
) as Record<keyof typeof MEASURED_GAS, bigint>;

/** The built transactions with a calibrated figure (approvals are planned apart). */
export type GasOperation = Exclude<keyof typeof MEASURED_GAS, 'erc20Approve' | 'permit2Approve'>;
