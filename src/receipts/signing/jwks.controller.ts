import { Controller, Get, Header } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/public.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { JwksResponse } from '../dto/receipt.response';
import { ReceiptSigner } from './receipt-signer';

@ApiTags('receipts')
@Public()
@Controller('.well-known')
export class JwksController {
  constructor(private readonly signer: ReceiptSigner) {}

  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  @Operation({
    id: 'getReceiptKeys',
    summary: 'The public keys compliance receipts are signed with (JWKS, ES256)',
    description:
      "Public, no credentials. Every key receipts were ever signed with, the current one first: a rotation of RECEIPT_SIGNING_KEY keeps older receipts verifiable. A receipt's JWS header names its key by kid (the key's RFC 7638 thumbprint).",
    ok: JwksResponse,
    errors: ['INTERNAL_ERROR'],
  })
  jwks() {
    return this.signer.jwks();
  }
}
