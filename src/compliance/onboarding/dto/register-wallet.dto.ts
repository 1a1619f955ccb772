import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ApiRequestExample } from '../../../common/openapi/api-request-example.decorator';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';
import { MAX_SIGNATURE_BYTES } from '../../siwe/verify-siwe-signature';

const SIGNATURE_PATTERN = new RegExp(`^0x([0-9a-fA-F]{2}){65,${MAX_SIGNATURE_BYTES}}$`);

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
    description:
      "EIP-191 (personal_sign) signature of message by walletAddress (0x + 130 hex), or, for a contract wallet, a signature it accepts under ERC-1271 isValidSignature(bytes32, bytes) over the message's EIP-191 hash, checked on chain against its current state: for a Safe, the 65-byte signatures of enough owners for its threshold, each over the Safe's SafeMessage typed data of that hash, concatenated in ascending owner address order.",
    pattern: SIGNATURE_PATTERN.source,
    maxLength: 2 + 2 * MAX_SIGNATURE_BYTES,
  })
  @IsOptional()
  @Matches(SIGNATURE_PATTERN, {
    message: `signature must be 0x-prefixed hex of 65 to ${MAX_SIGNATURE_BYTES} bytes`,
  })
  signature?: string;
}
