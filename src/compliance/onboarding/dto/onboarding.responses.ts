import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class NonceResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({
    description: 'Single use, for your account only; put it in the SIWE message.',
    example: '3f1c9a0e5b7d4c2a8e6f1b3d5a7c9e0f',
  })
  nonce: string;
  @ApiProperty({ example: '2026-11-21T14:40:00.000Z' }) expiresAt: string;
  @ApiProperty({ description: 'The domain the message must name.', example: 'localhost' })
  domain: string;
  @ApiProperty({ example: 84532 }) chainId: number;
  @ApiProperty({ example: 'https://localhost' }) uri: string;
  @ApiPropertyOptional({
    description:
      'Present when walletAddress was given: the ERC-4361 text to sign as is (personal_sign).',
  })
  message?: string;
}

export class RegisterWalletResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }) walletAddress: string;
  @ApiProperty({ description: 'Your account.' }) accountId: string;
  @ApiProperty({ example: true }) bound: boolean;
  @ApiProperty({
    description:
      'Demo mode: true when the wallet was taken over from another account (which one is not disclosed); false when it was unbound or already yours.',
  })
  rebound: boolean;
}

export class ActivatedSessionResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }) walletAddress: string;
  @ApiProperty({
    description: 'Session end (ISO 8601, UTC); active strictly before.',
    example: '2026-11-22T14:30:00.000Z',
  })
  activeUntil: string;
  @ApiProperty({
    description: 'Same instant in unix seconds (ComplianceRegistry.activeUntil).',
    example: 1795357800,
  })
  activeUntilUnix: number;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'The mined ComplianceRegistry.activate transaction; null when alreadyActive (nothing was sent).',
  })
  txHash: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'null when alreadyActive.' })
  blockNumber: number | null;
  @ApiProperty({
    description:
      'true: the wallet already had a session that an activation now would lengthen by at most half of SESSION_TTL_SECONDS (more than half its length left, or it already reaches the expiry of the credential or attestation presented); it is returned as is and no transaction was sent. Repeats are free; the attester pays only for renewals.',
  })
  alreadyActive: boolean;
  @ApiProperty({
    description: 'The wallet is bound to your account (demo activation binds an unbound wallet).',
  })
  walletBound: boolean;
}
