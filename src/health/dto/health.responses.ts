import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';

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
      signer: 'key',
      balanceEth: '0.5',
      lowBalance: false,
      canPay: true,
      pendingOnNode: 0,
      owedRevocations: { pending: 0, oldestAgeSeconds: 0 },
    },
    redis: {
      status: 'degraded',
      message:
        'Redis unavailable (not connected); rate limits are enforced per instance until it returns',
    },
  },
};

/**
 * Readiness. By default (the API port) only `status`, and a `reason` when degraded. With
 * HEALTH_DETAILS=true, and always on the metrics listener (METRICS_PORT, GET /health/ready), the
 * Terminus result too: every component's status and details: `chain.rpc` (the RPC URL in use,
 * each URL's recent error rate), `chain.instance` (the chain's genesis hash and whether it is a
 * new chain since the database last saw one: what was cleared then), `attester` (address, signer,
 * balance, lowBalance, canPay, pending transactions, owed revocations, the standby). The chain,
 * Redis and the attester are shared by every instance: when impaired they are `degraded` (with a
 * `message`) and the instance stays ready.
 */
export class ReadinessResponse {
  @ApiProperty({
    enum: ['ok', 'degraded'],
    description:
      '`ok`: every component is up. `degraded`: a shared dependency is impaired (`reason` says which and what it means); this instance still serves.',
  })
  status: 'ok' | 'degraded';
  @ApiPropertyOptional({
    description:
      'Present when `degraded`: each impaired component and what it means, e.g. "attester: the primary attester cannot pay for gas: activations fail and 1 owed session revocation(s) wait until it is funded". Never an address, a balance or a host.',
    example:
      'chain: the chain RPC is unreachable, slow or serves another chain: requests that need the chain answer 503 CHAIN_UNAVAILABLE',
  })
  reason?: string;
  @ApiPropertyOptional({
    ...COMPONENTS,
    description:
      'With HEALTH_DETAILS=true (always on the metrics listener): components that are up or degraded',
  })
  info?: Record<string, { status: string }>;
  @ApiPropertyOptional({
    ...COMPONENTS,
    example: {},
    description:
      'With HEALTH_DETAILS=true: components that are down (always empty in a 200: a down database means 503)',
  })
  error?: Record<string, { status: string }>;
  @ApiPropertyOptional({ ...COMPONENTS, description: 'With HEALTH_DETAILS=true: every component' })
  details?: Record<string, { status: string }>;
}
