import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { IsWalletAddress } from '../../common/validation/is-evm-address';
import { OptionalDateTimeQuery } from '../../common/validation/optional-date-time-query';
import { RECEIPT_PAGE_DEFAULT, RECEIPT_PAGE_MAX } from '../receipts.service';

export class ReceiptIdParamDto {
  @ApiProperty({
    format: 'uuid',
    description: 'A receiptId from a build response',
    example: '01964b1e-7c3a-7d21-9f0e-5a1b2c3d4e5f',
  })
  @IsUUID('all', { message: 'id must be a receipt id (a UUID)' })
  id: string;
}

/** The period (and wallet) of a listing or an export. */
export class ReceiptPeriodQueryDto {
  @OptionalDateTimeQuery('from', {
    description: 'Receipts issued at or after this instant (ISO 8601)',
    example: '2026-11-01T00:00:00Z',
  })
  from?: Date;

  @OptionalDateTimeQuery('to', {
    description: 'Receipts issued before this instant (ISO 8601)',
    example: '2026-12-01T00:00:00Z',
  })
  to?: Date;

  @ApiPropertyOptional({
    description: "Only this wallet's receipts",
    example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  })
  @IsOptional()
  @IsWalletAddress()
  wallet?: string;
}

export class ListReceiptsQueryDto extends ReceiptPeriodQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'A receipt id: list the receipts issued after it (pass the nextAfter of the previous page, or the id of the last receipt you hold). An id this account does not have is 400 INVALID_PARAMS.',
  })
  @IsOptional()
  @IsUUID('all', { message: 'after must be the id of a receipt' })
  after?: string;

  @ApiPropertyOptional({
    description: `Receipts per page, oldest first (default ${RECEIPT_PAGE_DEFAULT}).`,
    minimum: 1,
    maximum: RECEIPT_PAGE_MAX,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(RECEIPT_PAGE_MAX)
  limit?: number;
}
