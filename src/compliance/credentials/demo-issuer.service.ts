import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { getAddress } from 'ethers';
import { DataSource, IsNull, Repository } from 'typeorm';
import { ComplianceConfig } from '../../config/compliance.config';
import { ActivityLog } from '../../events/activity-log';
import { recordForWalletOwner } from '../wallet-owner-activity';
import type { CredentialFile } from '../zk/credential-file';
import {
  expectedNullifier,
  holderCommitment,
  newCredentialSecret,
  signCredential,
} from '../zk/credential-issuer';
import { CredentialTree } from '../zk/credential-tree';
import { DEVNET_ISSUER_PRIVATE_KEY } from '../zk/devnet-issuer';
import { credentialFile } from '../zk/proof-generator';
import { CredentialRootsService } from './credential-roots.service';
import { IssuedCredential } from './issued-credential.entity';

/** Default life of a demo credential when `--expires-in` is not given: one year. */
export const DEFAULT_CREDENTIAL_TTL_SECONDS = 365 * 24 * 60 * 60;

/**
 * The DEMO credential issuer (test network only): keeps the tree of valid credentials, signs new
 * ones, empties revoked leaves, and pushes every new root to the verifier's accepted roots. A
 * production issuer is another party with the same interface: credential files out, roots pushed.
 */
@Injectable()
export class DemoIssuerService {
  constructor(
    @InjectRepository(IssuedCredential) private readonly issued: Repository<IssuedCredential>,
    private readonly roots: CredentialRootsService,
    private readonly config: ComplianceConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly activity?: ActivityLog,
  ) {}

  /** `issuerPrivateKey`: another registered issuer's key (default: the configured demo key). */
  async issue(
    wallet: string,
    expiresInSeconds: number,
    issuerPrivateKey: string = this.signingKey(),
  ): Promise<CredentialFile> {
    const credentialSecret = newCredentialSecret();
    const walletAddress = getAddress(wallet.toLowerCase());
    const signed = await signCredential({
      wallet: walletAddress,
      holderCommitment: holderCommitment(credentialSecret),
      expiresAt: Math.floor(Date.now() / 1000) + expiresInSeconds,
      issuerPrivateKey,
    });
    const leafIndex = await this.issued.count();
    await this.issued.insert({
      leafIndex,
      walletAddress,
      leaf: signed.leaf,
      nullifier: expectedNullifier(credentialSecret, walletAddress),
      expiresAt: signed.expiresAt,
      revokedAt: null,
    });
    const tree = await this.tree();
    await this.roots.push(tree.root);
    return credentialFile(signed, credentialSecret, tree, leafIndex);
  }

  /** Empties every leaf of the wallet and rotates the root; returns the revoked nullifiers. */
  async revoke(wallet: string): Promise<{ nullifiers: string[]; root: string }> {
    const walletAddress = getAddress(wallet.toLowerCase());
    const live = await this.issued.findBy({ walletAddress, revokedAt: IsNull() });
    if (live.length > 0) {
      await this.issued.update({ walletAddress, revokedAt: IsNull() }, { revokedAt: new Date() });
    }
    const tree = await this.tree();
    if (live.length > 0) {
      await this.roots.push(tree.root, true);
      await recordForWalletOwner(
        this.dataSource,
        this.activity,
        walletAddress,
        'credential.revoked',
        {
          credentials: live.length,
          root: tree.root,
        },
      );
    }
    return { nullifiers: live.map((c) => c.nullifier), root: tree.root };
  }

  /** The credential's path in today's tree (after other issuances moved the root). */
  async refresh(credential: CredentialFile): Promise<CredentialFile> {
    const row = await this.issued.findOneBy({ leafIndex: credential.leafIndex });
    if (!row || row.leaf !== credential.leaf || row.revokedAt !== null) {
      throw new Error('this credential is not in the issuer tree (revoked or unknown)');
    }
    return { ...credential, merkle: (await this.tree()).path(credential.leafIndex) };
  }

  private async tree(): Promise<CredentialTree> {
    const rows = await this.issued.find({ order: { leafIndex: 'ASC' } });
    return CredentialTree.fromLeaves(rows.map((r) => (r.revokedAt === null ? r.leaf : null)));
  }

  private signingKey(): string {
    if (this.config.issuerPrivateKey) return this.config.issuerPrivateKey;
    if (this.config.production)
      throw new Error('the demo issuer is test-network only: set ZK_ISSUER_PRIVATE_KEY');
    return DEVNET_ISSUER_PRIVATE_KEY;
  }
}
