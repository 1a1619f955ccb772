import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/public.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import type { ProvingArtifacts } from '../zk/proving-artifacts';
import { ProvingArtifactsService } from './proving-artifacts.service';

class ProvingArtifactResponse {
  @ApiProperty({ example: 'compliance_credential.zkey' }) file: string;
  @ApiProperty({
    description:
      'Relative to the service: content-addressed, cached forever (a new key is a new URL).',
    example:
      '/zk/3f1c0c8f5fd3ad1d0e8f9b7e0cdd4b0fb5b3a0f1c9a8e7d6c5b4a3f2e1d0c9b8/compliance_credential.zkey',
  })
  url: string;
  @ApiProperty({
    description: 'Check the downloaded bytes against it before proving.',
    example: '3f1c0c8f5fd3ad1d0e8f9b7e0cdd4b0fb5b3a0f1c9a8e7d6c5b4a3f2e1d0c9b8',
  })
  sha256: string;
  @ApiProperty({ example: 6508178 }) bytes: number;
}

class VerificationKeyDigest {
  @ApiProperty({ description: 'SHA-256 of the verification key /verify checks proofs against.' })
  sha256: string;
}

class ProvingArtifactsResponse {
  @ApiProperty({ enum: ['compliance_credential'] }) circuit: 'compliance_credential';
  @ApiProperty({
    description: 'Changes whenever the wasm or the zkey changes.',
    example: '9c1e0d2b7a4f5e61',
  })
  version: string;
  @ApiProperty({ type: ProvingArtifactResponse, description: 'The witness generator.' })
  wasm: ProvingArtifactResponse;
  @ApiProperty({ type: ProvingArtifactResponse, description: 'The Groth16 proving key.' })
  zkey: ProvingArtifactResponse;
  @ApiProperty({ type: VerificationKeyDigest }) verificationKey: VerificationKeyDigest;
}

@ApiTags('compliance')
@Public()
@Controller(['verify/artifacts', 'api/v1/verify/artifacts'])
export class ProvingArtifactsController {
  constructor(private readonly artifacts: ProvingArtifactsService) {}

  @Get()
  @ApiOperation({
    operationId: 'getProvingArtifacts',
    summary: 'The circuit files a wallet holder proves with, pinned by SHA-256 (public)',
    description:
      'Download `wasm.url` and `zkey.url` (relative to the service), check each against its `sha256`, and prove a credential for a challenge of GET /verify/challenge; the proof is what POST /verify takes.',
  })
  @ApiOkResponse({ type: ProvingArtifactsResponse })
  @ApiErrors('INTERNAL_ERROR')
  get(): ProvingArtifacts {
    return this.artifacts.artifacts;
  }
}
