import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { Role, ROLES } from '../../../auth/roles';
import { ApiRequestExample } from '../../../common/openapi/api-request-example.decorator';

@ApiRequestExample({ role: 'developer' })
export class UpdateMemberRoleDto {
  @ApiProperty({
    description:
      'The new role. `owner` transfers ownership (owner only; the previous owner becomes admin). Only the owner grants or takes away admin.',
    enum: ROLES,
    example: 'developer',
  })
  @IsIn(ROLES)
  role: Role;
}

export class MemberResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ example: 'dev@acme.test' }) email: string;
  @ApiProperty({ enum: ROLES, example: 'developer' }) role: Role;
  @ApiProperty({ format: 'date-time' }) joinedAt: string;
}

export class MemberItem {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty({ example: 'dev@acme.test' }) email: string;
  @ApiProperty({ enum: ROLES, example: 'developer' }) role: Role;
  @ApiProperty({ format: 'date-time' }) joinedAt: string;
}

export class MemberListResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({ type: [MemberItem], description: 'Every member, oldest first' })
  items: MemberItem[];
}
