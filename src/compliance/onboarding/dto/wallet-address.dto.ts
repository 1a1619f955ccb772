import { ApiProperty } from '@nestjs/swagger';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';

export class WalletAddressDto {
  @ApiProperty({
    description: 'Wallet whose compliance session to activate.',
    example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  })
  @IsWalletAddress()
  walletAddress: string;
}
