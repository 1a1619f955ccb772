import { ApiProperty } from '@nestjs/swagger';

export class BoundWalletResponse {
  @ApiProperty({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }) address: string;
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
