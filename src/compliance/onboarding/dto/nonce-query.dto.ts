import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';

export class NonceQueryDto {
  @ApiPropertyOptional({
    description:
      'When given, the response also carries the ready-to-sign SIWE message for this wallet.',
  })
  @IsOptional()
  @IsWalletAddress()
  walletAddress?: string;
}
