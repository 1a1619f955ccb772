import { ApiProperty, PickType } from '@nestjs/swagger';
import { ActivatedSessionResponse } from '../../onboarding/dto/onboarding.responses';

export class VerifyChallengeResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }) walletAddress: string;
  @ApiProperty({
    description:
      'Single use, for your account and this wallet only: the proof’s `challenge` public input (decimal).',
    example: '2894772343521847923710237498127349817234987123498712349871234987123498712',
  })
  challenge: string;
  @ApiProperty({ example: '2026-11-22T14:40:00.000Z' }) expiresAt: string;
  @ApiProperty({ example: 1795358400 }) expiresAtUnix: number;
}

export class VerifyIssuer {
  @ApiProperty({
    description:
      'The registered issuer whose key signed the credential (`npm run cli -- issuers list`; "default" is the configured one).',
    example: 'acme-kyc',
  })
  name: string;
}

export class VerifyResponse extends PickType(ActivatedSessionResponse, [
  'authMethod',
  'walletAddress',
  'activeUntil',
  'activeUntilUnix',
  'txHash',
  'blockNumber',
  'alreadyActive',
] as const) {
  @ApiProperty({ example: true }) verified: boolean;
  @ApiProperty({
    description: 'Identifies the credential (the same for every proof of it), not the proof.',
  })
  nullifier: string;
  @ApiProperty({
    description:
      'The credential’s expiry (unix s): the session never outlives it (activeUntil = min(now + TTL, this)).',
    example: 1826893800,
  })
  credentialExpiresAt: number;
  @ApiProperty({ type: VerifyIssuer }) issuer: VerifyIssuer;
}
