import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CredentialRoot } from './credential-root.entity';
import { CredentialRootsService } from './credential-roots.service';
import { DemoIssuerService } from './demo-issuer.service';
import { IssuedCredential } from './issued-credential.entity';

/** Accepted credential roots (verifier side) and the demo issuer (test network, CLI). */
@Module({
  imports: [TypeOrmModule.forFeature([CredentialRoot, IssuedCredential])],
  providers: [CredentialRootsService, DemoIssuerService],
  exports: [CredentialRootsService, DemoIssuerService],
})
export class CredentialsModule {}
