/** POST /api/v1/defi/liquidity: preflight, tick rules, liquidity at the current price, mint calldata. */
import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/errors/api-error';
import type { LiquidityResponse } from './defi-builder.types';
import type { LiquidityRequestDto } from './dto/liquidity-request.dto';
import {
  checkTickRange,
  encodeMintCalldata,
  liquidityForAmounts,
  mintAmountsFor,
} from './encoding/liquidity-calldata';
import { GasEstimatorService } from './gas-estimator.service';
import { PreflightService } from './preflight.service';
import { DEFAULT_DEADLINE_SECONDS } from './swap-builder.service';
import { resolveToken } from './token-registry';

@Injectable()
export class LiquidityBuilderService {
  constructor(
    private readonly preflight: PreflightService,
    private readonly gas: GasEstimatorService,
  ) {}

  async build(
    dto: LiquidityRequestDto,
    buildOnly: boolean,
    principal: Principal | undefined,
  ): Promise<LiquidityResponse> {
    const network = this.preflight.network();
    const user = getAddress(dto.userAddress);
    // --- preflight
    const walletBound = await this.preflight.assertOwnership(user, principal);
    const token0 = resolveToken(network, dto.token0, 'token0');
    const token1 = resolveToken(network, dto.token1, 'token1');
    const amount0 = BigInt(dto.amount0);
    const amount1 = BigInt(dto.amount1);
    const reads = await this.preflight.read(user, { slot0: true });
    const session = this.preflight.assertSession(user, reads, buildOnly);
    const spend = this.preflight.planSpend(reads, 'liquidity', [
      { symbol: token0.symbol, amount: amount0 },
      { symbol: token1.symbol, amount: amount1 },
    ]);

    // --- build
    const violation = checkTickRange(dto.tickLower, dto.tickUpper, network.pool.tickSpacing);
    if (violation) {
      throw new ApiError('BUILD_FAILED', violation.message, {
        hint: violation.hint,
        extra: { rule: `TICK_${violation.rule}` },
      });
    }
    const price = reads.slot0!;
    if (price.sqrtPriceX96 === 0n) {
      throw new ApiError('BUILD_FAILED', 'The pool is not initialized', {
        hint: 'Check the pool key in GET /api/v1/defi/config.',
      });
    }
    const liquidity = liquidityForAmounts(price, dto.tickLower, dto.tickUpper, amount0, amount1);
    if (liquidity === 0n) {
      throw new ApiError(
        'BUILD_FAILED',
        'These amounts give zero liquidity in this range at the current price',
        {
          hint:
            price.tick < dto.tickLower
              ? 'The range is above the current price: it takes token0 only; raise amount0.'
              : price.tick >= dto.tickUpper
                ? 'The range is below the current price: it takes token1 only; raise amount1.'
                : 'Raise amount0 and amount1 (the range needs both tokens at the current price).',
        },
      );
    }
    const expected = mintAmountsFor(liquidity, price, dto.tickLower, dto.tickUpper);
    const deadline = dto.deadline ?? Number(reads.blockTimestamp) + DEFAULT_DEADLINE_SECONDS;
    const data = encodeMintCalldata({
      poolKey: network.pool,
      tickLower: dto.tickLower,
      tickUpper: dto.tickUpper,
      liquidity,
      amount0Max: amount0,
      amount1Max: amount1,
      owner: user,
      deadline: BigInt(deadline),
    });
    const to = network.contracts.positionManager;
    const gas = await this.gas.plan(
      'mint',
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
      tickLower: dto.tickLower,
      tickUpper: dto.tickUpper,
      liquidity: liquidity.toString(),
      amount0Max: amount0.toString(),
      amount1Max: amount1.toString(),
      expectedAmount0: expected.amount0.toString(),
      expectedAmount1: expected.amount1.toString(),
      sqrtPriceX96: price.sqrtPriceX96.toString(),
      currentTick: price.tick,
      owner: user,
      deadline,
    };
  }
}
