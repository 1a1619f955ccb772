import { ApiProperty } from '@nestjs/swagger';
import { AUDITED_TYPES } from '../audited-types';

class AuditActor {
  @ApiProperty({ enum: ['user', 'api_key', 'operator', 'system'] }) type: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'User id or API key id; null for the operator (CLI) and the service itself',
  })
  id: string | null;
}

class AuditTarget {
  @ApiProperty({ example: 'api_key', description: 'api_key, user, wallet, account, webhook...' })
  type: string;
  @ApiProperty({ example: '3fa85f64-5717-4562-b3fc-2c963f66afa6' }) id: string;
}

export class AuditEventResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ enum: AUDITED_TYPES, example: 'api_key.created' }) type: string;
  @ApiProperty({ type: AuditActor }) actor: AuditActor;
  @ApiProperty({ type: AuditTarget, nullable: true }) target: AuditTarget | null;
  @ApiProperty({ nullable: true, type: String, description: 'Client IP (see TRUST_PROXY)' })
  ip: string | null;
  @ApiProperty({ nullable: true, type: String }) userAgent: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The X-Request-Id of the request that caused it (also in the service logs)',
  })
  requestId: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'A few facts about the change; never a secret',
    example: { name: 'backend', scopes: ['defi:swap'] },
  })
  data: Record<string, unknown>;
}

export class AuditEventListResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({
    type: [AuditEventResponse],
    description: 'One page: newest first, or oldest first with `after`',
  })
  items: AuditEventResponse[];
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      "Pass as cursor to get the next (older) page; null on the last page, and always null with `after` (pass the last item's id as `after` instead).",
  })
  nextCursor: string | null;
}
