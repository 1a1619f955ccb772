import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import { appConfig, AppConfig } from '../../config/app.config';
import { complianceConfig, ComplianceConfig } from '../../config/compliance.config';
import { ActivatedSession, SessionsService } from '../sessions/sessions.service';
import { WalletsService } from '../wallets/wallets.service';
import { verifyComplianceProof } from '../zk';
import { VerifyProofDto } from './dto/verify-proof.dto';
import { ProofNullifiersService } from './proof-nullifiers.service';

export type VerificationResult = ActivatedSession & { verified: true; nullifier: string };

/**
 * POST /verify: a Groth16 proof that the wallet holds a credential of the configured issuer
 * opens its compliance session. Order (spec §7 phases): proof (validation, 400) -> ownership
 * (preflight, 403) -> nullifier spent first (409 for every later or concurrent replay) -> the
 * activation transaction (broadcast, 502/503; the nullifier is released so the user can retry).
 */
@Injectable()
export class VerificationService {
  private readonly logger = new Logger(VerificationService.name);

  constructor(
    private readonly wallets: WalletsService,
    private readonly nullifiers: ProofNullifiersService,
    private readonly sessions: SessionsService,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
    @Inject(complianceConfig.KEY) private readonly config: ComplianceConfig,
  ) {}

  async verify(principal: Principal, body: VerifyProofDto): Promise<VerificationResult> {
    const verification = await verifyComplianceProof(body, {
      verificationKey: this.config.verificationKey,
      issuerPublicKey: this.config.issuerPublicKey,
    });
    if (!verification.ok) throw new ApiError('PROOF_INVALID', verification.message);
    const { wallet, nullifier } = verification;

    // Production: the wallet must already be the caller's (bound with SIWE). Demo: bind-or-own.
    if (this.app.mode === 'production')
      await this.wallets.assertBoundTo(wallet, principal.accountId);
    else await this.wallets.bind(wallet, principal.accountId, 'keep');

    if (!(await this.nullifiers.claim(nullifier, wallet, principal.accountId))) {
      throw new ApiError('PROOF_REPLAYED', 'This credential proof (nullifier) was already used');
    }
    try {
      return { ...(await this.sessions.activate(wallet)), verified: true, nullifier };
    } catch (error) {
      await this.nullifiers.release(nullifier).catch((releaseError: unknown) => {
        this.logger.error(
          `could not release nullifier after a failed activation: ${String(releaseError)}`,
        );
      });
      throw error;
    }
  }
}
