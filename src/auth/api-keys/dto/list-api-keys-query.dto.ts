import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { API_KEY_PAGE_DEFAULT, API_KEY_PAGE_MAX } from '../api-key-page';

export class ListApiKeysQueryDto {
  @ApiPropertyOptional({
    description: `Keys per page, newest first (default ${API_KEY_PAGE_DEFAULT}).`,
    minimum: 1,
    maximum: API_KEY_PAGE_MAX,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(API_KEY_PAGE_MAX)
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
