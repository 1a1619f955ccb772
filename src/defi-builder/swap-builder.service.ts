/** POST /api/v1/defi/swap: preflight, quote, then UniversalRouter calldata (spec §2.1, §4). */
import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/errors/api-error';
import type { SwapResponse } from './defi-builder.types';
import type { SwapRequestDto } from './dto/swap-request.dto';
import { zeroForOneFor } from './encoding/pool-key';
import { decodeRevert } from '../chain/encoding/revert-decoder';
import { encodeSwapCalldata, minAmountOut } from './encoding/swap-calldata';
import { GasEstimatorService } from './gas-estimator.service';
import { PreflightService } from './preflight.service';
import { resolveToken } from './token-registry';

export const DEFAULT_SLIPPAGE_BPS = 50;
export const DEFAULT_DEADLINE_SECONDS = 20 * 60;

@Injectable()
export class SwapBuilderService {
  constructor(
    private readonly preflight: PreflightService,
    private readonly gas: GasEstimatorService,
  ) {}

  async build(
    dto: SwapRequestDto,
    buildOnly: boolean,
    principal: Principal | undefined,
  ): Promise<SwapResponse> {
    const network = this.preflight.network();
    const user = getAddress(dto.userAddress);
    // --- preflight: ownership, whitelist, then the one eth_call, then the session gate.
    const walletBound = await this.preflight.assertOwnership(user, principal);
    const tokenIn = resolveToken(network, dto.tokenIn, 'tokenIn');
    const tokenOut = resolveToken(network, dto.tokenOut, 'tokenOut');
    const zeroForOne = zeroForOneFor(tokenIn.address, tokenOut.address);
    const amountIn = BigInt(dto.amount);
    const reads = await this.preflight.read(user, { quote: { zeroForOne, exactAmount: amountIn } });
    const session = this.preflight.assertSession(user, reads, buildOnly);
    const spend = this.preflight.planSpend(reads, 'swap', [
      { symbol: tokenIn.symbol, amount: amountIn },
    ]);

    // --- build
    const quoted = reads.quote?.ok ? reads.quote.amountOut : null;
    let minOut: bigint;
    const slippageBps =
      dto.amountOutMinimum === undefined ? (dto.slippageBps ?? DEFAULT_SLIPPAGE_BPS) : null;
    if (dto.amountOutMinimum !== undefined) {
      minOut = BigInt(dto.amountOutMinimum);
    } else if (quoted !== null && quoted > 0n) {
      minOut = minAmountOut(quoted, slippageBps!);
    } else {
      const why =
        reads.quote && !reads.quote.ok
          ? decodeRevert(reads.quote.revertData).summary
          : 'the quote was zero';
      throw new ApiError(
        'BUILD_FAILED',
        `Could not quote ${amountIn} ${tokenIn.symbol} -> ${tokenOut.symbol}: ${why}`,
        {
          hint: 'Lower the amount (the pool may lack liquidity for it), or pass amountOutMinimum explicitly.',
        },
      );
    }
    const deadline = dto.deadline ?? Number(reads.blockTimestamp) + DEFAULT_DEADLINE_SECONDS;
    const data = encodeSwapCalldata({
      poolKey: network.pool,
      zeroForOne,
      amountIn,
      amountOutMinimum: minOut,
      deadline: BigInt(deadline),
    });
    const to = network.contracts.universalRouter;
    const gas = await this.gas.plan(
      'swap',
      { from: user, to, data },
      { sessionActive: session.active, approvalsPending: spend.approvals.length > 0 },
    );

    return {
      chainId: network.chainId,
      transaction: { to, data, value: '0', gas: gas.gas.toString() },
      gasSource: gas.gasSource,
      walletBound,
      session,
      warnings: [
        ...spend.warnings,
        ...this.preflight.sessionDeadlineWarnings(reads, deadline),
        ...gas.warnings,
      ],
      approvals: spend.approvals,
      simulation: gas.simulation,
      poolKey: network.pool,
      tokenIn: tokenIn.address,
      tokenOut: tokenOut.address,
      zeroForOne,
      amountIn: amountIn.toString(),
      quotedAmountOut: quoted === null ? null : quoted.toString(),
      minAmountOut: minOut.toString(),
      slippageBps,
      deadline,
    };
  }
}
