import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';

/**
 * `approvalId` of a build sent again after an APPROVAL_REQUIRED refusal (issue 55): the same body
 * plus this field; refused while the request waits, and answered once when approved.
 */
export function ApprovalIdField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      format: 'uuid',
      description:
        'The approvalId of an APPROVAL_REQUIRED refusal, with the same body otherwise (the trade approved: wallet, tokens, amounts, route bounds; deadline and permit may differ). APPROVAL_PENDING until the quorum is reached, then 200 once; afterwards APPROVAL_USED. Another trade with this id: 409 APPROVAL_MISMATCH. Ended requests: APPROVAL_REJECTED, APPROVAL_EXPIRED, APPROVAL_NOT_REQUIRED (the policy no longer requires it).',
      example: '3f0c6a5e-1d2b-4c8e-9a7f-0b1c2d3e4f50',
    }),
    IsOptional(),
    IsUUID('all', { message: 'approvalId must be the approvalId of an APPROVAL_REQUIRED refusal' }),
  );
}
