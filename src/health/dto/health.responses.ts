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
  example: {
    database: { status: 'up' },
    chain: {
      status: 'up',
      chainId: 84532,
      network: 'base-sepolia',
      rpc: { inUse: 'https://rpc-b.example.com', urlsConfigured: 2, windowSeconds: 60 },
    },
    attester: {
      status: 'up',
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      balanceEth: '0.5',
      lowBalance: false,
      pendingOnNode: 0,
    },
    redis: { status: 'degraded' },
  },
};

/**
 * The Terminus health-check result: every component's status (redis may be `degraded`) and its
 * details: `chain.rpc` (the RPC URL in use, each URL's recent error rate), `attester` (address,
 * balance, lowBalance, pending transactions).
 */
export class ReadinessResponse {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ ...COMPONENTS, description: 'Components that answered' })
  info: Record<string, { status: string }>;
  @ApiProperty({ ...COMPONENTS, description: 'Components that failed (empty when ready)' })
  error: Record<string, { status: string }>;
  @ApiProperty({ ...COMPONENTS, description: 'Every component' })
  details: Record<string, { status: string }>;
}
