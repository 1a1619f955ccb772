/** OpenAPI shape of a build answered with callsFormat=eip5792 (pipeline/wallet-send-calls.ts). */
import { ApiProperty } from '@nestjs/swagger';
import { ADDRESS_SCHEMA } from './build-parts.response';

const HEX_QUANTITY = { pattern: '^0x(0|[1-9a-f][0-9a-f]*)$' };

export class WalletSendCallDto {
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'The contract to call (EIP-55)' }) to: string;
  @ApiProperty({ pattern: '^0x([0-9a-fA-F]{2})*$', example: '0x095ea7b3…' }) data: string;
  @ApiProperty({ ...HEX_QUANTITY, description: 'Wei to send, hex', example: '0x0' })
  value: string;
}

export class WalletSendCallsDto {
  @ApiProperty({ enum: ['2.0.0'], description: 'EIP-5792 version' }) version: string;
  @ApiProperty({ ...HEX_QUANTITY, description: 'EIP-155 chain id, hex', example: '0x14a34' })
  chainId: string;
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'userAddress (EIP-55): the wallet or Safe' })
  from: string;
  @ApiProperty({
    description:
      'true with more than one call: the approvals and their trade must land together (a wallet that cannot batch atomically refuses; send the default calls one by one instead)',
  })
  atomicRequired: boolean;
  @ApiProperty({
    type: [WalletSendCallDto],
    description: "The build's calls in order: approvals, then the transaction",
  })
  calls: WalletSendCallDto[];
}
