import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { OptionalDateTimeQuery } from '../../common/validation/optional-date-time-query';
import { IsIn, IsInt, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX } from '../audit-page';
import { AUDITED_TYPES } from '../audited-types';

export class ListAuditEventsQueryDto {
  @OptionalDateTimeQuery('from', {
    description: 'Events at or after this instant (ISO 8601)',
    example: '2026-11-01T00:00:00Z',
  })
  from?: Date;

  @OptionalDateTimeQuery('to', {
    description: 'Events before this instant (ISO 8601)',
    example: '2026-12-01T00:00:00Z',
  })
  to?: Date;

  @ApiPropertyOptional({ enum: AUDITED_TYPES, description: 'Only events of this type' })
  @IsOptional()
  @IsIn(AUDITED_TYPES)
  type?: string;

  @ApiPropertyOptional({
    description: 'Only events by this actor: a user id, an API key id, `operator` or `system`',
    example: 'operator',
  })
  @IsOptional()
  @Matches(/^(operator|system|[0-9a-f-]{36})$/, {
    message: 'actor must be a user or API key id, operator or system',
  })
  actor?: string;

  @ApiPropertyOptional({
    description: `Events per page, newest first (default ${AUDIT_PAGE_DEFAULT}).`,
    minimum: 1,
    maximum: AUDIT_PAGE_MAX,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(AUDIT_PAGE_MAX)
  limit?: number;

  @ApiPropertyOptional({
    description:
      'The nextCursor of the previous page (older events); omit for the first. Not with `after`.',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'cursor must be a nextCursor from a previous page' })
  cursor?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'An event id: list the events written after it, oldest first, instead of newest first (a SIEM polling for new events passes the id of the last event it received; nextCursor is then null). Combines with the other filters, not with `cursor`. An id this account does not have (or one past retention) is 400 INVALID_PARAMS.',
  })
  @IsOptional()
  @IsUUID('all', { message: 'after must be the id of an audit event' })
  after?: string;
}
