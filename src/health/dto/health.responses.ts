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
      instance: {
        genesisHash: '0x0f5b0c5fd1a3e2d1a2f1e3b8f6c5d4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7',
        since: '2026-01-05T09:00:00.000Z',
        state: 'same',
        previousGenesisHash: null,
        cleared: {},
      },
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
 * RPC URL in use, each URL's recent error rate), `chain.instance` (the chain's genesis hash and
 * whether it is a new chain since the database last saw one: what was cleared then), `attester` (address, balance, lowBalance, pending
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
