import { ApiProperty } from '@nestjs/swagger';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';
import { PUBLIC_SIGNAL_COUNT, type Groth16Proof } from '../../zk';
import { IsGroth16Proof, IsPublicSignals } from './groth16-proof-shape';

export class VerifyProofDto {
  @ApiProperty({
    description: 'The wallet the proof is bound to (public signal 3).',
    example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  })
  @IsWalletAddress()
  walletAddress: string;

  @ApiProperty({
    description:
      'snarkjs Groth16 proof (bn128) of circuits/compliance_credential.circom; `npm run zk:prove -- --credential FILE --challenge C` prints the whole body.',
    example: {
      pi_a: ['1', '2', '1'],
      pi_b: [
        ['1', '2'],
        ['3', '4'],
        ['1', '0'],
      ],
      pi_c: ['1', '2', '1'],
      protocol: 'groth16',
      curve: 'bn128',
    },
  })
  @IsGroth16Proof()
  proof: Groth16Proof;

  @ApiProperty({
    description: `[nullifier, issuerX, issuerY, wallet, challenge, now, expiresAt, root]: exactly ${PUBLIC_SIGNAL_COUNT} decimal strings below the BN254 scalar field.`,
    type: [String],
    example: [
      '1',
      '2',
      '3',
      '642829559307850963015472508762062935916233390536',
      '4',
      '1764028800',
      '1900000000',
      '5',
    ],
  })
  @IsPublicSignals()
  publicSignals: string[];
}
