import { ApiProperty } from '@nestjs/swagger';

export class BoundWalletResponse {
  @ApiProperty({ example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }) address: string;
  @ApiProperty({ format: 'date-time', description: 'When the wallet was bound to your account' })
  boundAt: string;
}

export class WalletListResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({
    type: [BoundWalletResponse],
    description:
      'Wallets bound to your account, most recently bound first. Their session status: GET /api/v1/defi/preflight/{address}.',
  })
  items: BoundWalletResponse[];
}
