import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Matches, Max, Min, ValidateIf } from 'class-validator';
import { ApiRequestExample } from '../../../common/openapi/api-request-example.decorator';
import { IsEvmAddress, IsWalletAddress } from '../../../common/validation/is-evm-address';
import { ApprovalIdField } from '../../dto/approval-id.field';
import { EXAMPLE } from '../../dto/request-examples';
import { IsUint128String, register } from '../../dto/validators';
import { DeadlineField } from '../../dto/deadline.field';

const WALLET = EXAMPLE.wallet;

/** A position NFT id: a positive decimal integer string (a JSON integer is accepted too). */
function IsTokenId(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) =>
      typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value,
    ),
    Matches(/^[1-9][0-9]{0,76}$/, {
      message: '$property must be a positive decimal integer (the position NFT id)',
    }),
  );
}

const TOKEN_ID = { description: 'Position NFT id (PositionManager tokenId).', example: '42' };
const SLIPPAGE =
  'Price move tolerated between build and execution, in basis points (0..5000, default 50).';

/** Optional slippage tolerance in bps, documented with what it bounds. */
function SlippageBps(bounds: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      description: `${SLIPPAGE} ${bounds}`,
      default: 50,
      minimum: 0,
      maximum: 5000,
    }),
    IsOptional(),
    IsInt(),
    Min(0),
    Max(5000),
  );
}
abstract class PositionRequest {
  @ApiProperty(TOKEN_ID)
  @IsTokenId()
  tokenId: string;

  @ApiProperty({
    description:
      'The wallet that owns the position and signs; must not be bound to another account.',
    example: WALLET,
  })
  @IsWalletAddress()
  userAddress: string;

  @DeadlineField('PositionManager')
  deadline?: number;
}

/** Body of POST /api/v1/defi/liquidity/increase. */
@ApiRequestExample({
  tokenId: '42',
  userAddress: WALLET,
  amount0: '100000000000000000',
  amount1: '300000000',
})
export class IncreaseLiquidityDto extends PositionRequest {
  @ApiProperty({
    description: 'token0 (WETH) to add at the current price, smallest units, > 0 and < 2^128.',
    example: '100000000000000000',
  })
  @IsUint128String()
  amount0: string;

  @ApiProperty({
    description: 'token1 (tUSDC) to add at the current price, smallest units, > 0 and < 2^128.',
    example: '300000000',
  })
  @IsUint128String()
  amount1: string;

  @SlippageBps(
    'Sets amount0Max/amount1Max (v4-sdk mintAmountsWithSlippage): the most the increase may take.',
  )
  slippageBps?: number;

  @ApprovalIdField()
  approvalId?: string;
}

/** burn: true needs the whole liquidity (liquidityBps 10000); `liquidity` is checked against the position later. */
function BurnTakesAll(): PropertyDecorator {
  return register(
    'burnTakesAll',
    'burn: true removes the whole position: send liquidityBps 10000 (or the whole liquidity), or burn: false',
    (value, args) => {
      const { liquidityBps } = args.object as { liquidityBps?: unknown };
      return value !== true || liquidityBps === undefined || liquidityBps === 10_000;
    },
  );
}

function NotWith(other: string): PropertyDecorator {
  return register('notWith', `send either $property or ${other}, not both`, (_value, args) => {
    return (args.object as Record<string, unknown>)[other] === undefined;
  });
}

/** Body of POST /api/v1/defi/liquidity/decrease: liquidityBps or liquidity (exactly one). */
@ApiRequestExample({ tokenId: '42', userAddress: WALLET, liquidityBps: 5000 })
export class DecreaseLiquidityDto extends PositionRequest {
  @ApiPropertyOptional({
    description:
      'Share of the position to remove, in basis points (1..10000; 10000 = all). Or send liquidity.',
    minimum: 1,
    maximum: 10_000,
    example: 5000,
  })
  @ValidateIf((o: DecreaseLiquidityDto) => o.liquidity === undefined)
  @IsInt({ message: 'liquidityBps must be an integer from 1 to 10000 (or send liquidity instead)' })
  @Min(1)
  @Max(10_000)
  liquidityBps?: number;

  @ApiPropertyOptional({
    description:
      'Exact liquidity to remove (at most the position liquidity). Or send liquidityBps.',
    example: '1000000000',
  })
  @ValidateIf((o: DecreaseLiquidityDto) => o.liquidity !== undefined)
  @IsUint128String()
  @NotWith('liquidityBps')
  liquidity?: string;

  @SlippageBps(
    'Sets amount0Min/amount1Min from the current price (v4-sdk burnAmountsWithSlippage).',
  )
  slippageBps?: number;

  @ApiPropertyOptional({
    description: 'Also burn the position NFT (BURN_POSITION); only with the whole liquidity.',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  @BurnTakesAll()
  burn?: boolean;
}

/** Body of POST /api/v1/defi/liquidity/collect. */
@ApiRequestExample({ tokenId: '42', userAddress: WALLET })
export class CollectFeesDto extends PositionRequest {
  @ApiPropertyOptional({
    description:
      'Who receives the fees. Default: userAddress. Refused (400 INVALID_PARAMS, field recipient): the zero address, the v4 action markers 0x…01/0x…02 and other reserved addresses below 0x10000, a protocol contract (PoolManager, PositionManager, UniversalRouter, Permit2, the hook, the registry, …) or a token contract.',
    example: WALLET,
  })
  @IsOptional()
  @IsEvmAddress()
  recipient?: string;
}

/** Query of GET /api/v1/defi/positions. */
export class PositionsQueryDto {
  @ApiProperty({ description: 'Wallet whose positions to list.', example: WALLET })
  @IsWalletAddress()
  owner: string;
}

/** Path of GET /api/v1/defi/positions/:tokenId. */
export class TokenIdParamDto {
  @ApiProperty(TOKEN_ID)
  @IsTokenId()
  tokenId: string;
}
