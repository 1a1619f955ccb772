import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';

export class ActivateAttestationDto {
  @ApiProperty({
    description: 'Wallet whose compliance session to open from its attestation.',
    example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  })
  @IsWalletAddress()
  walletAddress: string;

  @ApiPropertyOptional({
    description:
      "Name of the accepted source to use (the network file's compliance.attestationSources); absent: any accepted source.",
    example: 'verified-account',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9._-]{0,63}$/, { message: 'source must be a source name' })
  source?: string;
}
