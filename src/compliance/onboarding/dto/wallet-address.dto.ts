import { ApiProperty } from '@nestjs/swagger';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';

export class WalletAddressDto {
  @ApiProperty({
    description: 'Wallet whose compliance session to activate.',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  @IsWalletAddress()
  walletAddress: string;
}
