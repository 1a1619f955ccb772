import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { EXAMPLE } from './request-examples';
import { IsFutureUnixSeconds } from './validators';

/**
 * A build's optional `deadline`, checked by `contract` (the router of a swap, the PositionManager
 * of a liquidity change); an authorized build's is capped (defi-pipeline.service.ts).
 */
export function DeadlineField(contract: 'router' | 'PositionManager'): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      description: `Unix seconds after which the ${contract} rejects the transaction. Default: now + 20 minutes. A build that carries a trade authorization (trade rules enforced on chain) lives at most the operator's AUTHORIZATION_TTL_SECONDS (20 minutes by default): a later deadline is built to that one.`,
      example: EXAMPLE.future,
    }),
    IsOptional(),
    IsFutureUnixSeconds(),
  );
}
