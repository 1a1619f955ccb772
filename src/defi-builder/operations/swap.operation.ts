/** POST /api/v1/defi/swap: exact-input single-pool swap through the UniversalRouter (spec §2.1, §4). */
import { ApiError } from '../../common/errors/api-error';
import type { DefiOperation } from '../build/defi-pipeline.service';
import type { BuildResponseBase, SwapResponse } from '../defi-builder.types';
import type { SwapRequestDto } from '../dto/swap-request.dto';
import { quoteExactInputRead } from '../encoding/market-reads';
import { zeroForOneFor } from '../encoding/pool-key';
import { encodeSwapCalldata, minAmountOut } from '../encoding/swap-calldata';

export const DEFAULT_SLIPPAGE_BPS = 50;

type SwapDetails = Omit<SwapResponse, keyof BuildResponseBase>;
type SwapReads = { quote: ReturnType<typeof quoteExactInputRead> };

type Tokens = 'tokenIn' | 'tokenOut';

export const swapOperation: DefiOperation<SwapRequestDto, Tokens, SwapReads, SwapDetails> = {
  preflight: (dto) => ({
    session: 'required',
    tokens: { tokenIn: dto.tokenIn, tokenOut: dto.tokenOut },
    reads: ({ tokenIn, tokenOut }, network) => ({
      quote: quoteExactInputRead(
        network,
        zeroForOneFor(tokenIn.address, tokenOut.address),
        BigInt(dto.amount),
      ),
    }),
    spend: ({ tokenIn }) => ({
      use: 'swap',
      needs: [{ symbol: tokenIn.symbol, amount: BigInt(dto.amount) }],
    }),
  }),

  build: (dto, { network, tokens: { tokenIn, tokenOut }, reads: { quote } }, deadline) => {
    const zeroForOne = zeroForOneFor(tokenIn.address, tokenOut.address);
    const amountIn = BigInt(dto.amount);
    const quoted = quote.ok ? quote.amountOut : null;
    const slippageBps =
      dto.amountOutMinimum === undefined ? (dto.slippageBps ?? DEFAULT_SLIPPAGE_BPS) : null;
    let minOut: bigint;
    if (dto.amountOutMinimum !== undefined) {
      minOut = BigInt(dto.amountOutMinimum);
    } else if (quoted !== null && quoted > 0n) {
      minOut = minAmountOut(quoted, slippageBps!);
    } else {
      const why = quote.ok ? 'the quote was zero' : quote.revert.summary;
      throw new ApiError(
        'BUILD_FAILED',
        `Could not quote ${amountIn} ${tokenIn.symbol} -> ${tokenOut.symbol}: ${why}`,
        {
          hint: 'Lower the amount (the pool may lack liquidity for it), or pass amountOutMinimum explicitly.',
        },
      );
    }
    return {
      to: network.contracts.universalRouter,
      data: encodeSwapCalldata({
        poolKey: network.pool,
        zeroForOne,
        amountIn,
        amountOutMinimum: minOut,
        deadline: BigInt(deadline),
      }),
      gas: 'swap',
      details: {
        tokenIn: tokenIn.address,
        tokenOut: tokenOut.address,
        zeroForOne,
        amountIn: amountIn.toString(),
        quotedAmountOut: quoted === null ? null : quoted.toString(),
        minAmountOut: minOut.toString(),
        slippageBps,
      },
    };
  },
};
