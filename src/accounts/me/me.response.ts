import { ApiProperty } from '@nestjs/swagger';
import { PLANS } from '../plans';
import { ROLES } from '../../auth/roles';

export class MeUser {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'ops@acme.test' }) email: string;
  @ApiProperty({ enum: ROLES, example: 'owner' }) role: string;
  @ApiProperty({ description: 'Whether two-factor sign-in (TOTP) is on for this user' })
  mfaEnabled: boolean;
}

export class MeAccount {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Acme Treasury' }) name: string;
  @ApiProperty({ enum: PLANS, example: 'pro' }) plan: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Requests per calendar month (UTC) the account may make; null: unlimited',
    example: 1_000_000,
  })
  monthlyQuota: number | null;
  @ApiProperty({ type: 'integer', description: 'Requests per minute', example: 1_200 })
  rateLimitPerMinute: number;
}

export class MeResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({ type: MeUser }) user: MeUser;
  @ApiProperty({ type: MeAccount }) account: MeAccount;
}
