import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ApiRequestExample } from '../../../common/openapi/api-request-example.decorator';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';

/** In demo mode the wallet alone binds; production adds a SIWE message and its signature. */
@ApiRequestExample({ walletAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' })
export class RegisterWalletDto {
  @ApiProperty({
    description: 'Wallet to bind to your account.',
    example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  })
  @IsWalletAddress()
  walletAddress: string;

  @ApiPropertyOptional({
    description:
      'Sign-In-with-Ethereum (ERC-4361) message for walletAddress, with a nonce from GET /onboarding/nonce, the service domain and chainId 84532. Required in production mode; checked when present in demo mode (send it with signature, or neither).',
    maxLength: 4096,
  })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  message?: string;

  @ApiPropertyOptional({
    description: 'EIP-191 (personal_sign) signature of message by walletAddress: 0x + 130 hex.',
  })
  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{130}$/, {
    message: 'signature must be a 65-byte 0x-prefixed hex string',
  })
  signature?: string;
}
