/**
 * POST /api/v1/defi/swap: single-pool swap through the UniversalRouter (spec §2.1, §4; issue 11):
 * exact input or exact output, native ETH on either side, a signed Permit2 permit instead of the
 * Permit2 approval. The preflight batch carries the V4Quoter quote; the limits follow from it.
 */
import type { DefiOperation } from '../pipeline/defi-pipeline.service';
import { CALIBRATED_GAS } from '../pipeline/gas';
import type { BuildResponseBase, SwapResponse } from '../defi-builder.types';
import type { SwapRequestDto } from '../dto/swap-request.dto';
import { quoteRead } from '../encoding/market-reads';
import { encodeSwapCalldata } from '../encoding/swap-calldata';
import { signedPermit } from '../preflight/spend-plan';
import { swapGas, swapLimits, tradeTypeOf, zeroForOneOf } from './swap-limits';

export { DEFAULT_SLIPPAGE_BPS } from './swap-limits';

type SwapDetails = Omit<SwapResponse, keyof BuildResponseBase>;
type SwapReads = { quote: ReturnType<typeof quoteRead> };
type Tokens = 'tokenIn' | 'tokenOut';

export const swapOperation: DefiOperation<SwapRequestDto, Tokens, SwapReads, SwapDetails> = {
  preflight: (dto) => ({
    session: 'required',
    nativeEth: true,
    tokens: { tokenIn: dto.tokenIn, tokenOut: dto.tokenOut },
    reads: (tokens, network) => ({
      quote: quoteRead(
        network,
        zeroForOneOf(network, tokens),
        tradeTypeOf(dto),
        BigInt(dto.amount),
      ),
    }),
    spend: (tokens, { quote }) => ({
      use: 'swap',
      needs: [
        {
          symbol: tokens.tokenIn.symbol,
          amount: swapLimits(dto, quote, tokens).maxIn,
          native: tokens.tokenIn.native,
        },
      ],
      gas: CALIBRATED_GAS[swapGas(tokens, dto.permit !== undefined)],
      offerPermit: 'single',
      signed: signedPermit('permit', dto.userAddress, dto.permit, dto.permitSignature),
    }),
  }),

  build: (dto, { network, tokens, reads: { quote } }, deadline) => {
    const { tokenIn, tokenOut } = tokens;
    const zeroForOne = zeroForOneOf(network, tokens);
    const limits = swapLimits(dto, quote, tokens);
    const exactIn = limits.tradeType === 'EXACT_INPUT';
    const permit = dto.permit && { permit: dto.permit, signature: dto.permitSignature! };
    const data = encodeSwapCalldata({
      poolKey: network.pool,
      zeroForOne,
      deadline: BigInt(deadline),
      ethIn: tokenIn.native,
      ethOut: tokenOut.native,
      permit,
      ...(exactIn
        ? { amountIn: limits.exact, amountOutMinimum: limits.limit }
        : { tradeType: 'EXACT_OUTPUT', amountOut: limits.exact, amountInMaximum: limits.limit }),
    });
    const quoted = limits.quoted === null ? null : limits.quoted.toString();
    return {
      to: network.contracts.universalRouter,
      data,
      value: tokenIn.native ? limits.maxIn : 0n,
      gas: swapGas(tokens, permit !== undefined),
      details: {
        tradeType: limits.tradeType,
        tokenIn: tokenIn.address,
        tokenOut: tokenOut.address,
        zeroForOne,
        ...(exactIn
          ? {
              amountIn: limits.exact.toString(),
              quotedAmountOut: quoted,
              minAmountOut: limits.limit.toString(),
            }
          : {
              amountOut: limits.exact.toString(),
              quotedAmountIn: quoted,
              maxAmountIn: limits.limit.toString(),
            }),
        slippageBps: limits.slippageBps,
      },
    };
  },
};
