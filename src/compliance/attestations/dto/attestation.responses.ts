import { ApiProperty, PickType } from '@nestjs/swagger';
import { ActivatedSessionResponse } from '../../onboarding/dto/onboarding.responses';

export class AttestationSourceRef {
  @ApiProperty({ enum: ['attestation'] }) kind: 'attestation';
  @ApiProperty({ example: 'verified-account', description: 'The accepted source used.' })
  name: string;
  @ApiProperty({
    example: '0x5b0f6f6c1f35d9a4b1e0b1fbb1b1e8b27c3f1c8a0f1f9b1e2d3c4b5a69788796',
    description: 'The EAS attestation uid.',
  })
  uid: string;
}

export class AttestationActivationResponse extends PickType(ActivatedSessionResponse, [
  'authMethod',
  'walletAddress',
  'activeUntilUnix',
  'txHash',
  'blockNumber',
  'alreadyActive',
] as const) {
  @ApiProperty({
    description:
      "Session end (ISO 8601, UTC); active strictly before. Never after the attestation's expirationTime.",
    example: '2026-11-22T14:30:00.000Z',
  })
  activeUntil: string;
  @ApiProperty({
    type: AttestationSourceRef,
    description: 'The valid attestation this call found (also when alreadyActive).',
  })
  source: AttestationSourceRef;
}
