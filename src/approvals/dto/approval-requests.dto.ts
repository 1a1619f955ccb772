import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { APPROVAL_STATUSES, ApprovalStatus } from '../approval-request.entity';
import { APPROVAL_PAGE_DEFAULT, APPROVAL_PAGE_MAX } from '../approvals.service';

export class ApprovalIdParamDto {
  @ApiProperty({
    format: 'uuid',
    description: 'The approvalId of an APPROVAL_REQUIRED refusal',
    example: '3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50',
  })
  @IsUUID('all', { message: 'id must be an approval id (a UUID)' })
  id: string;
}

export class ListApprovalsQueryDto {
  @ApiPropertyOptional({ enum: APPROVAL_STATUSES, description: 'Only requests in this status' })
  @IsOptional()
  @IsIn(APPROVAL_STATUSES, { message: `status must be one of: ${APPROVAL_STATUSES.join(', ')}` })
  status?: ApprovalStatus;

  @ApiPropertyOptional({
    description: `Requests answered, newest first (default ${APPROVAL_PAGE_DEFAULT}).`,
    minimum: 1,
    maximum: APPROVAL_PAGE_MAX,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(APPROVAL_PAGE_MAX)
  limit?: number;
}

export class ApproveDto {
  @ApiPropertyOptional({
    description:
      'The current 6-digit code of your authenticator app: required when you have two-factor sign-in (each code is accepted once).',
    example: '123456',
  })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  code?: string;
}

export class RejectDto {
  @ApiProperty({
    description: 'Why: kept with the vote, in the audit trail and the webhook',
    example: 'Size above the desk limit this week',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  reason: string;
}
