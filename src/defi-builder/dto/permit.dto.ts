/**
 * Signed Permit2 permits sent back with a build (issue 11 §4): the `values` of the permitData we
 * returned, as signed. PermitSingle for a swap (spender: UniversalRouter), PermitBatch for a mint
 * (spender: PositionManager). Numbers are decimal strings, as in permitData.
 */
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { applyDecorators } from '@nestjs/common';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  Matches,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsEvmAddress } from '../../common/validation/is-evm-address';
import { EXAMPLE } from './request-examples';
import { IsUintString } from './validators';

/** 65-byte (r, s, v) or 64-byte EIP-2098 compact signature. */
export const SIGNATURE_PATTERN = /^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/;

export class PermitDetailsDto {
  @ApiProperty({ description: 'Token the spender may pull.', example: EXAMPLE.WETH })
  @IsEvmAddress()
  token: string;

  @ApiProperty({ description: 'uint160 amount, decimal string.', example: '100000000000000000' })
  @IsUintString(160, { allowZero: true })
  amount: string;

  @ApiProperty({
    description: 'uint48 unix seconds until which the allowance is usable.',
    example: String(EXAMPLE.future),
  })
  @IsUintString(48, { allowZero: true })
  expiration: string;

  @ApiProperty({
    description: "uint48: the wallet's current Permit2 nonce for (token, spender).",
    example: '0',
  })
  @IsUintString(48, { allowZero: true })
  nonce: string;
}

/** What both permit kinds share (Permit2 IAllowanceTransfer). */
class PermitCommonDto {
  @ApiProperty({
    description:
      'The UniversalRouter (swap) or the PositionManager (mint): GET /api/v1/defi/config.',
    example: EXAMPLE.universalRouter,
  })
  @IsEvmAddress()
  spender: string;

  @ApiProperty({
    description: 'Unix seconds after which the signature is refused.',
    example: String(EXAMPLE.future),
  })
  @IsUintString(256, { allowZero: true })
  sigDeadline: string;
}

export class PermitSingleDto extends PermitCommonDto {
  @ApiProperty({ type: PermitDetailsDto })
  @ValidateNested()
  @Type(() => PermitDetailsDto)
  details: PermitDetailsDto;
}

export class PermitBatchDto extends PermitCommonDto {
  @ApiProperty({
    type: [PermitDetailsDto],
    description: 'One entry per token, in permitData order.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  @ValidateNested({ each: true })
  @Type(() => PermitDetailsDto)
  details: PermitDetailsDto[];
}

export const PERMIT_SIGNATURE_MESSAGE =
  'permitSignature must be a 0x-prefixed 65-byte (or 64-byte compact) EIP-712 signature';

export function IsPermitSignature(): PropertyDecorator {
  return Matches(SIGNATURE_PATTERN, { message: PERMIT_SIGNATURE_MESSAGE });
}

/** A permit and its signature come together: either one requires the other. */
export function SentWith(self: string, other: string): PropertyDecorator {
  return applyDecorators(
    ValidateIf((o: Record<string, unknown>) => o[self] !== undefined || o[other] !== undefined),
    IsDefined({ message: `${self} is required with ${other}` }),
  );
}
