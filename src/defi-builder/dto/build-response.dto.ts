/** OpenAPI classes of the fields every build response carries (design §6); operations extend BuildResponseDto. */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ADDRESS_SCHEMA, SessionViewDto, UnsignedTxDto } from './build-parts.response';

export class WarningDto {
  @ApiProperty({
    enum: ['ALLOWANCE_INSUFFICIENT', 'SESSION_EXPIRES_BEFORE_DEADLINE', 'SIMULATION_REVERTED'],
  })
  code: string;
  @ApiProperty() message: string;
  @ApiProperty() hint: string;
}

export class ApprovalDto {
  @ApiProperty() token: string;
  @ApiProperty({ description: 'Permit2 (erc20 step) or the router (permit2 step)' })
  spender: string;
  @ApiProperty({ enum: ['erc20', 'permit2'] }) kind: string;
  @ApiProperty({ type: UnsignedTxDto }) transaction: UnsignedTxDto;
}

export class SimulationDto {
  @ApiProperty({
    nullable: true,
    type: Boolean,
    description: 'true: eth_estimateGas succeeded; false: reverted; null: not run',
  })
  ok: boolean | null;
  @ApiPropertyOptional() revertCode?: string;
  @ApiPropertyOptional() revertReason?: string;
  @ApiPropertyOptional({ enum: ['SESSION_NOT_ACTIVE', 'ALLOWANCE_INSUFFICIENT'] })
  skipped?: string;
}

export class PoolKeyDto {
  @ApiProperty(ADDRESS_SCHEMA) currency0: string;
  @ApiProperty(ADDRESS_SCHEMA) currency1: string;
  @ApiProperty({ example: 3000 }) fee: number;
  @ApiProperty({ example: 60 }) tickSpacing: number;
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'The ComplianceHook' }) hooks: string;
}

export class BuildResponseDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ example: 84532 }) chainId: number;
  @ApiProperty({ type: UnsignedTxDto, description: 'Sign and broadcast (after approvals[])' })
  transaction: UnsignedTxDto;
  @ApiProperty({ enum: ['eth_estimateGas', 'calibrated'] }) gasSource: string;
  @ApiProperty() walletBound: boolean;
  @ApiProperty({ type: SessionViewDto }) session: SessionViewDto;
  @ApiProperty({ type: [WarningDto] }) warnings: WarningDto[];
  @ApiProperty({ type: [ApprovalDto], description: 'Broadcast these first, in order' })
  approvals: ApprovalDto[];
  @ApiProperty({ type: SimulationDto }) simulation: SimulationDto;
  @ApiProperty({ type: PoolKeyDto }) poolKey: PoolKeyDto;
  @ApiProperty({ description: 'Unix seconds' }) deadline: number;
}
