/** The API of per-trade authorizations (issue 54) that the build pipeline and the ledger call. */
import type { TradeKind } from '../../chain/encoding/trade-authorization';

export interface AuthorizationRequest {
  /** The wallet that sends the transaction (the router's msgSender: what the hook checks). */
  trader: string;
  /** The v4 PoolId of the pool the hook meets first: the route's first hop (exact input), the
   * pool of a mint or increase. For an exact-output route the router swaps the last hop first:
   * pass that pool here and the route in execution order. */
  poolId: string;
  /** Every PoolId of the route in the order the router swaps them ([poolId] for one pool). */
  route: string[];
  /** The direction of the first pool's swap (false for liquidity). */
  zeroForOne: boolean;
  /**
   * What the hook sees and binds, positive: a swap's |amountSpecified| on the first pool (exact
   * input: amountIn; exact output: amountOut), a liquidity addition's liquidity (liquidityDelta).
   */
  amount: bigint;
  kind: TradeKind;
  /** A swap of exact output (amountSpecified > 0 in v4). Default false. */
  exactOutput?: boolean;
  /**
   * Two-pool routes (required there): the most the second pool the router meets may see, as
   * |amountSpecified|, of the currency linking the hops: the quoted intermediate amount (the
   * route quote's hops[0].amountOut for an exact input, hops[1].amountIn for an exact output)
   * plus the build's slippage, rounded up. The hook lets the second hop through for at most this.
   */
  nextAmountMax?: bigint;
  /** Unix seconds (chain time), the authorization's last valid second; default: now + AUTHORIZATION_TTL_SECONDS. Pass the build's deadline. */
  deadline?: number;
}

export interface IssuedAuthorization {
  /** Stable id (the EIP-712 digest): what a build answer, a receipt and the ledger name. */
  id: string;
  /** The authorizer's address (one of GET /api/v1/defi/config `authorizers`). */
  signer: string;
  deadline: number;
  /** Decimal string of the uint256 nonce (Permit2-style unordered: word = nonce >> 8). */
  nonce: string;
  /** hookData of the first pool (the one carrying the signature). */
  hookData: string;
  /** hookData per PoolId of the route (lower-case ids): the first pool's signature, '0x' for the second hop. */
  hookDataByPool: Record<string, string>;
}
