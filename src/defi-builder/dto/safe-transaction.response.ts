/** OpenAPI shape of a build's `safeTransaction` (design §10; pipeline/safe-transaction.ts). */
import { ApiProperty } from '@nestjs/swagger';
import { ADDRESS_SCHEMA, TypedDataFieldDto, UINT_STRING } from './build-parts.response';

const ZERO_ADDRESS = { ...ADDRESS_SCHEMA, example: '0x0000000000000000000000000000000000000000' };

export class SafeDomainDto {
  @ApiProperty({ type: 'integer', example: 84532 }) chainId: number;
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'The Safe (userAddress)' })
  verifyingContract: string;
}

class SafeTxTypesDto {
  @ApiProperty({
    type: [TypedDataFieldDto],
    description: 'chainId, verifyingContract (Safe v1.3.0 and later)',
  })
  EIP712Domain: TypedDataFieldDto[];
  @ApiProperty({
    type: [TypedDataFieldDto],
    description:
      'to, value, data, operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver, nonce',
  })
  SafeTx: TypedDataFieldDto[];
}

export class SafeTxMessageDto {
  @ApiProperty(ADDRESS_SCHEMA) to: string;
  @ApiProperty(UINT_STRING) value: string;
  @ApiProperty() data: string;
  @ApiProperty({ enum: [0, 1] }) operation: number;
  @ApiProperty(UINT_STRING) safeTxGas: string;
  @ApiProperty(UINT_STRING) baseGas: string;
  @ApiProperty(UINT_STRING) gasPrice: string;
  @ApiProperty(ZERO_ADDRESS) gasToken: string;
  @ApiProperty(ZERO_ADDRESS) refundReceiver: string;
  @ApiProperty(UINT_STRING) nonce: string;
}

export class SafeTxTypedDataDto {
  @ApiProperty({ type: SafeTxTypesDto, description: 'EIP-712 types, EIP712Domain included' })
  types: SafeTxTypesDto;
  @ApiProperty({ enum: ['SafeTx'] }) primaryType: 'SafeTx';
  @ApiProperty({ type: SafeDomainDto }) domain: SafeDomainDto;
  @ApiProperty({ type: SafeTxMessageDto }) message: SafeTxMessageDto;
}

export class SafeTransactionDto {
  @ApiProperty({
    ...ADDRESS_SCHEMA,
    description: 'MultiSendCallOnly 1.4.1 (canonical address): the batch the Safe delegatecalls',
    example: '0x9641d764fc13c8B624c04430C7356C1C7C8102e2',
  })
  to: string;
  @ApiProperty({ ...UINT_STRING, example: '0' }) value: string;
  @ApiProperty({
    description:
      'multiSend(bytes): every call of `calls` (approvals, then the transaction), each a call (operation 0) made by the Safe',
    example: '0x8d80ff0a…',
  })
  data: string;
  @ApiProperty({ enum: [1], description: '1: DELEGATECALL to MultiSendCallOnly' })
  operation: number;
  @ApiProperty({
    ...UINT_STRING,
    example: '0',
    description: '0: all gas, and a failing batch reverts execTransaction (GS013)',
  })
  safeTxGas: string;
  @ApiProperty({ ...UINT_STRING, example: '0' }) baseGas: string;
  @ApiProperty({
    ...UINT_STRING,
    example: '0',
    description: '0: no refund; who sends execTransaction pays its gas',
  })
  gasPrice: string;
  @ApiProperty(ZERO_ADDRESS) gasToken: string;
  @ApiProperty(ZERO_ADDRESS) refundReceiver: string;
  @ApiProperty({
    ...UINT_STRING,
    example: '0',
    description:
      "The Safe's nonce when built (Safe.nonce()): another Safe transaction executed first makes this one unexecutable; build again",
  })
  nonce: string;
  @ApiProperty({
    pattern: '^0x[0-9a-f]{64}$',
    description:
      'EIP-712 hash of the SafeTx, as Safe.getTransactionHash answers it and Safe{Wallet} shows it',
    example: '0x6c1d3a5f0c3a0e7f1f1f5b0a2c4d6e8f90a1b2c3d4e5f60718293a4b5c6d7e8f',
  })
  safeTxHash: string;
  @ApiProperty({
    type: SafeTxTypedDataDto,
    description:
      "Each owner signs this with eth_signTypedData_v4 (ethers: signTypedData(domain, types without EIP712Domain, message)); the threshold's signatures, concatenated in ascending owner address order, are execTransaction's `signatures`",
  })
  typedData: SafeTxTypedDataDto;
}
