import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';

export class LivenessResponse {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
}

const COMPONENTS: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { status: { type: 'string', example: 'up' } },
    required: ['status'],
    additionalProperties: true,
  },
  example: { database: { status: 'up' }, chain: { status: 'up' }, redis: { status: 'degraded' } },
};

/** The Terminus health-check result: every component's status (redis may be `degraded`). */
export class ReadinessResponse {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ ...COMPONENTS, description: 'Components that answered' })
  info: Record<string, { status: string }>;
  @ApiProperty({ ...COMPONENTS, description: 'Components that failed (empty when ready)' })
  error: Record<string, { status: string }>;
  @ApiProperty({ ...COMPONENTS, description: 'Every component' })
  details: Record<string, { status: string }>;
}
