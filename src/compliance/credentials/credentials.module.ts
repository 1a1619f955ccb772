import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CredentialRoot } from './credential-root.entity';
import { CredentialRootsService } from './credential-roots.service';
import { DemoIssuerService } from './demo-issuer.service';
import { IssuedCredential } from './issued-credential.entity';
import { CredentialIssuer, CredentialIssuerKey } from './credential-issuer.entity';
import { IssuersService } from './issuers.service';

/** Accepted credential roots (verifier side) and the demo issuer (test network, CLI). */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      CredentialRoot,
      IssuedCredential,
      CredentialIssuer,
      CredentialIssuerKey,
    ]),
  ],
  providers: [CredentialRootsService, DemoIssuerService, IssuersService],
  exports: [CredentialRootsService, DemoIssuerService, IssuersService],
})
export class CredentialsModule {}
