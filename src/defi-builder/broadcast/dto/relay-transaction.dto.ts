import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, registerDecorator } from 'class-validator';
import { signedTransactionProblem } from '../signed-transaction';

const HEX_BYTES = /^0x([0-9a-fA-F]{2})+$/;

/** Decodes as a signed transaction (RLP, type 0/1/2, canonical): before auth, like any field rule. */
function IsSignedTransaction(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isSignedTransaction',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: (args) =>
          `${args.property} ${signedTransactionProblem(args.value) ?? 'is invalid'}`,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'string' ||
          !HEX_BYTES.test(value) ||
          signedTransactionProblem(value) === null,
      },
    });
}

/**
 * A real example, signed for chain 84532 by a key nobody funds (keccak256("cgk relay example")):
 * approve(Permit2, max) on the devnet's tUSDC. Posted as is it passes validation and is refused
 * for what it is (the sender cannot pay gas: BALANCE_INSUFFICIENT; on another network the token
 * differs: BROADCAST_TARGET_NOT_ALLOWED).
 */
export const SIGNED_TRANSACTION_EXAMPLE =
  '0x02f8b283014a3480843b9aca00847735940082ea6094993706027b3ec9d8b03a962caaa15c133a52707c80b844095ea7b3000000000000000000000000000000000022d473030f116ddee9f6b43ac78ba3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc080a0c82efa4acdfccd4e994e676b9867246ef7ca303f82cfc606928d6dbc90ccd220a07e6490d4ca6e66f7d694bb5fb669b68e566fb08754ff5773fe84c554f53e6fa7';

export class RelayTransactionDto {
  @ApiProperty({
    description:
      'The signed transaction as 0x-prefixed RLP hex (EIP-1559 type 2, EIP-2930 type 1 or legacy EIP-155), for chain 84532, as a wallet returns it: ethers `wallet.signTransaction(tx)`, viem `walletClient.signTransaction(tx)`. Its target must be one the service builds for: the `transaction` or an `approvals[]` entry of a build response.',
    example: SIGNED_TRANSACTION_EXAMPLE,
    pattern: '^0x([0-9a-fA-F]{2})+$',
    maxLength: 16000,
  })
  @IsString()
  @MaxLength(16000)
  @Matches(HEX_BYTES, {
    message: '$property must be 0x-prefixed hex of whole bytes (the signed RLP transaction)',
  })
  @IsSignedTransaction()
  signedTransaction: string;
}

export class TxHashParamDto {
  @ApiProperty({
    description: 'Transaction hash: 0x + 64 hex characters. Any hash: relayed here or not.',
    example: '0xd1870c1ac612d3274380d28191ee9d3ef4157e4fcce5807186ce1e30f4b7c0c3',
    pattern: '^0x[0-9a-fA-F]{64}$',
  })
  @Matches(/^0x[0-9a-fA-F]{64}$/, {
    message: '$property must be a transaction hash: 0x followed by 64 hex characters',
  })
  txHash: string;
}
