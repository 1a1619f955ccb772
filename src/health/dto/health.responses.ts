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
    redis: {
      status: 'degraded',
      message:
        'Redis unavailable (not connected); rate limits are enforced per instance until it returns',
    },
  },
};

/**
 * The Terminus health-check result: every component's status and its details: `chain.rpc` (the
 * RPC URL in use, each URL's recent error rate), `attester` (address, balance, lowBalance, pending
 * transactions). The chain and Redis are shared by every instance: when slow or unreachable they
 * are `degraded` (with a `message`) and the instance stays ready.
 */
export class ReadinessResponse {
  @ApiProperty({
    enum: ['ok', 'degraded'],
    description:
      '`ok`: every component is up. `degraded`: the chain RPC or Redis is slow or unreachable (see details); this instance still serves, requests that need the chain answer 503 CHAIN_UNAVAILABLE, rate limits are per instance until Redis answers.',
  })
  status: 'ok' | 'degraded';
  @ApiProperty({ ...COMPONENTS, description: 'Components that are up or degraded' })
  info: Record<string, { status: string }>;
  @ApiProperty({
    ...COMPONENTS,
    example: {},
    description: 'Components that are down (always empty in a 200: a down database means 503)',
  })
  error: Record<string, { status: string }>;
  @ApiProperty({ ...COMPONENTS, description: 'Every component' })
  details: Record<string, { status: string }>;
}
