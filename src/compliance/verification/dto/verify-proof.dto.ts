import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, Matches } from 'class-validator';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';
import { PUBLIC_SIGNAL_COUNT } from '../../zk';
import { IsGroth16ProofShape } from './groth16-proof-shape';

export class VerifyProofDto {
  @ApiProperty({
    description: 'The wallet the proof is bound to (public signal 3).',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  @IsWalletAddress()
  walletAddress: string;

  @ApiProperty({
    description:
      'snarkjs Groth16 proof (bn128) of circuits/compliance_credential.circom; `npm run zk:prove -- --wallet 0x...` prints one for the devnet issuer.',
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
  @IsGroth16ProofShape()
  proof: Record<string, unknown>;

  @ApiProperty({
    description: `[nullifier, issuerX, issuerY, wallet] as decimal strings (exactly ${PUBLIC_SIGNAL_COUNT}).`,
    type: [String],
  })
  @IsArray()
  @ArrayMinSize(PUBLIC_SIGNAL_COUNT)
  @ArrayMaxSize(PUBLIC_SIGNAL_COUNT)
  @Matches(/^[0-9]{1,78}$/, {
    each: true,
    message: 'each of publicSignals must be a decimal string of at most 78 digits',
  })
  publicSignals: string[];
}
