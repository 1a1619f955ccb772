import { ApiProperty } from '@nestjs/swagger';
import { APPROVAL_STATUSES } from '../approval-request.entity';

export class ApprovalGivesDto {
  @ApiProperty({ description: "The token's symbol (ETH counts as WETH)", example: 'tUSDC' })
  token: string;
  @ApiProperty({ description: 'Whole token units', example: '1500' })
  amount: string;
}

export class ApprovalRequesterDto {
  @ApiProperty({ enum: ['user', 'api_key'] }) type: string;
  @ApiProperty({ description: 'The user or API key id that built' }) id: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The member who asked: the user, or the member who created the API key',
  })
  userId: string | null;
  @ApiProperty({ nullable: true, type: String }) email: string | null;
}

export class ApprovalVoteDto {
  @ApiProperty() userId: string;
  @ApiProperty({ nullable: true, type: String }) email: string | null;
  @ApiProperty({ example: 'admin' }) role: string;
  @ApiProperty({ enum: ['approve', 'reject'] }) decision: string;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "'totp' when confirmed with a current code (members with two-factor sign-in)",
  })
  secondFactor: string | null;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class ApprovalApproverDto {
  @ApiProperty() userId: string;
  @ApiProperty() email: string;
  @ApiProperty({ example: 'owner' }) role: string;
}

export class ApprovalDailyLimitDto {
  @ApiProperty({ example: 'tUSDC' }) token: string;
  @ApiProperty({ description: 'The policy’s perDay, whole units', example: '5000' }) perDay: string;
  @ApiProperty({
    description: 'Given in the rolling 24 h window now (mined + reserved)',
    example: '1200',
  })
  used: string;
  @ApiProperty({ example: '3800' }) remaining: string;
  @ApiProperty({ description: 'What this request gives of the token', example: '1500' })
  requested: string;
}

export class ApprovalResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: APPROVAL_STATUSES }) status: string;
  @ApiProperty({ example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }) wallet: string;
  @ApiProperty({ enum: ['swap', 'mint', 'increase'] }) operation: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "The build's body as requested (without approvalId and deadline): what is approved",
  })
  request: Record<string, unknown>;
  @ApiProperty({ type: [ApprovalGivesDto], description: 'What the wallet gives, per token' })
  gives: ApprovalGivesDto[];
  @ApiProperty({ type: ApprovalRequesterDto }) requestedBy: ApprovalRequesterDto;
  @ApiProperty({ description: 'Distinct members whose approval it needs' }) quorum: number;
  @ApiProperty({ type: [String], example: ['owner', 'admin'] }) roles: string[];
  @ApiProperty({ description: 'Approvals so far' }) approvals: number;
  @ApiProperty({ type: [ApprovalVoteDto] }) votes: ApprovalVoteDto[];
  @ApiProperty({
    type: [ApprovalApproverDto],
    description: 'Members who may still approve: an approving role, not the requester, no vote yet',
  })
  approvers: ApprovalApproverDto[];
  @ApiProperty({
    type: [ApprovalDailyLimitDto],
    description:
      'How much of each daily limit (trading.limits perDay) of a token it gives the request would use: what the window holds now and this request',
  })
  dailyLimits: ApprovalDailyLimitDto[];
  @ApiProperty({ description: 'The compliance policy version it was opened under' })
  policyVersion: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) decidedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) usedAt: string | null;
}

export class ApprovalListResponse {
  @ApiProperty({ type: [ApprovalResponse], description: 'Newest first' })
  items: ApprovalResponse[];
}
