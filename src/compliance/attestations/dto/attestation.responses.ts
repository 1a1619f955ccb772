import { ApiProperty } from '@nestjs/swagger';

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

export class AttestationActivationResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }) walletAddress: string;
  @ApiProperty({
    description:
      "Session end (ISO 8601, UTC); active strictly before. Never after the attestation's expirationTime.",
    example: '2026-11-22T14:30:00.000Z',
  })
  activeUntil: string;
  @ApiProperty({ example: 1795357800 }) activeUntilUnix: number;
  @ApiProperty({ description: 'The mined ComplianceRegistry.activate transaction.' })
  txHash: string;
  @ApiProperty() blockNumber: number;
  @ApiProperty({ type: AttestationSourceRef }) source: AttestationSourceRef;
}
