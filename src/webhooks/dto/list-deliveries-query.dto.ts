import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

export const DELIVERY_PAGE_DEFAULT = 20;
export const DELIVERY_PAGE_MAX = 100;

export class ListDeliveriesQueryDto {
  @ApiPropertyOptional({
    description: `Deliveries per page, newest first (default ${DELIVERY_PAGE_DEFAULT}).`,
    minimum: 1,
    maximum: DELIVERY_PAGE_MAX,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(DELIVERY_PAGE_MAX)
  limit?: number;

  @ApiPropertyOptional({
    description: 'The nextCursor of the previous page; omit for the first page.',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, {
    message: 'cursor must be a nextCursor from a previous page',
  })
  cursor?: string;
}
