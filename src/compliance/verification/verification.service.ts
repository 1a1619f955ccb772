import { Injectable, Logger } from '@nestjs/common';
import { getAddress } from 'ethers';
import type { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import { ComplianceConfig } from '../../config/compliance.config';
import type { RequestMeta } from '../../common/http/request-meta';
import { ComplianceActivity } from '../compliance-activity';
import { CredentialRootsService } from '../credentials/credential-roots.service';
import { OpenSession, SessionAdmission } from '../session-admission';
import { zkSourceName } from '../policy/zk-source';
import { IssuersService } from '../credentials/issuers.service';
import type { ActivatedSession } from '../sessions/sessions.service';
import { readComplianceStatement, type ComplianceStatement } from '../zk';
import { VerifyProofDto } from './dto/verify-proof.dto';
import { ProofVerifierService } from './proof-verifier.service';
import { VerifyChallengesService } from './verify-challenges.service';

export type VerificationResult = Omit<ActivatedSession, 'txHash' | 'blockNumber'> & {
  /** null when the open session was answered as it is (alreadyActive): nothing was sent. */
  txHash: string | null;
  blockNumber: number | null;
  alreadyActive: boolean;
  verified: true;
  nullifier: string;
  credentialExpiresAt: number;
  /** The registered issuer whose key signed the credential. */
  issuer: { name: string };
};

const NEW_CHALLENGE =
  'Fetch a new challenge with GET /verify/challenge, prove again and POST /verify.';

/**
 * POST /verify: a Groth16 proof that the wallet holds an unexpired, unrevoked credential of a
 * registered issuer, made for a challenge we issued, opens (or renews) its compliance session.
 * Order: statement (400) -> issuer (400 unknown key, 403 revoked issuer) -> challenge (400 unknown/expired/foreign, 409 used), clock and root
 * (400) -> pairing (400) -> expiry (400 CREDENTIAL_EXPIRED) -> the shared admission (sanctions,
 * policy, ownership, binding: SessionAdmission) -> the challenge spent atomically (409 for every
 * concurrent replay) -> an open session answered as it is, or the wallet's activation limit
 * (429) and the activation (502/503; on either the challenge is given back so the same proof can
 * be retried).
 */
@Injectable()
export class VerificationService {
  private readonly logger = new Logger(VerificationService.name);

  constructor(
    private readonly challenges: VerifyChallengesService,
    private readonly roots: CredentialRootsService,
    private readonly issuers: IssuersService,
    private readonly verifier: ProofVerifierService,
    private readonly activity: ComplianceActivity,
    private readonly admission: SessionAdmission,
    private readonly config: ComplianceConfig,
  ) {}

  async issueChallenge(principal: Principal, address: string) {
    const walletAddress = getAddress(address.toLowerCase());
    const row = await this.challenges.issue(principal.accountId, walletAddress);
    return {
      walletAddress,
      challenge: row.challenge,
      expiresAt: new Date(row.expiresAt * 1000).toISOString(),
      expiresAtUnix: row.expiresAt,
    };
  }

  async verify(
    principal: Principal,
    body: VerifyProofDto,
    meta?: RequestMeta,
  ): Promise<VerificationResult> {
    const statement = this.readStatement(body);
    // Whose key signed it: 400 for a key we do not accept, 403 for a revoked issuer.
    const issuer = await this.issuers.acceptedIssuer(statement.issuer);
    await this.checkFreshness(principal, statement);
    if (!(await this.verifier.verify(body.publicSignals, body.proof))) {
      throw new ApiError('PROOF_INVALID', 'the proof does not verify against the verification key');
    }
    if (statement.expiresAt <= Math.floor(Date.now() / 1000)) {
      throw new ApiError(
        'CREDENTIAL_EXPIRED',
        `The credential expired at ${new Date(statement.expiresAt * 1000).toISOString()}`,
      );
    }
    // Production: the wallet must already be the caller's (bound with SIWE). Demo: bind-or-own.
    const presented = {
      kind: 'zk' as const,
      name: zkSourceName({ name: issuer }),
      expiresAt: statement.expiresAt,
    };
    const { current } = await this.admission.admit({
      principal,
      wallet: statement.wallet,
      presented,
      notAfter: statement.expiresAt,
      meta,
    });
    return this.openSession(principal, statement, issuer, current, meta);
  }

  private readStatement(body: VerifyProofDto): ComplianceStatement {
    const statement = readComplianceStatement(body.walletAddress, body.publicSignals);
    if (!statement.ok) throw new ApiError('PROOF_INVALID', statement.message);
    return statement;
  }

  /** The challenge is ours, live and unused; `now` is our clock's; the root is one we accept. */
  private async checkFreshness(principal: Principal, s: ComplianceStatement): Promise<void> {
    const lookup = await this.challenges.lookup(s.challenge, principal.accountId, s.wallet);
    if (lookup === 'used') {
      throw new ApiError('PROOF_REPLAYED', 'This challenge was already used');
    }
    if (lookup === 'unknown') {
      throw new ApiError(
        'PROOF_INVALID',
        'The proof is for an unknown or expired challenge, or one issued to another account or wallet',
        { hint: NEW_CHALLENGE },
      );
    }
    const skew = Math.abs(s.now - Math.floor(Date.now() / 1000));
    if (skew > this.config.proofClockSkewSeconds) {
      throw new ApiError(
        'PROOF_INVALID',
        `The proof's now is ${skew} s away from the server clock (at most ${this.config.proofClockSkewSeconds} s)`,
        { hint: `Check the prover's clock. ${NEW_CHALLENGE}` },
      );
    }
    if (!(await this.roots.accepted()).includes(s.root)) {
      throw new ApiError('PROOF_INVALID', 'The proof is for a credential root we do not accept', {
        hint: "The credential may be revoked, or the holder's tree is stale: refresh the credential's Merkle path from the issuer and prove again.",
      });
    }
  }

  private async openSession(
    principal: Principal,
    s: ComplianceStatement,
    issuerName: string,
    current: OpenSession | null,
    meta?: RequestMeta,
  ): Promise<VerificationResult> {
    if (!(await this.challenges.consume(s.challenge, principal.accountId, s.nullifier))) {
      throw new ApiError('PROOF_REPLAYED', 'This challenge was already used');
    }
    const proven = {
      verified: true as const,
      nullifier: s.nullifier,
      credentialExpiresAt: s.expiresAt,
      issuer: { name: issuerName },
    };
    // The session stays as it is: the challenge is spent, no session is recorded for the proof.
    if (current)
      return { ...current, txHash: null, blockNumber: null, alreadyActive: true, ...proven };
    let session: ActivatedSession;
    try {
      session = await this.admission.open(s.wallet, s.expiresAt);
    } catch (error) {
      await this.challenges.release(s.challenge).catch((releaseError: unknown) => {
        this.logger.error(
          `could not release a challenge after a failed activation: ${String(releaseError)}`,
        );
      });
      throw error;
    }
    await this.challenges.recordSession(s.challenge, session.activeUntilUnix, issuerName);
    await this.activity.sessionActivated(principal, session, { via: 'proof' }, meta);
    return { ...session, alreadyActive: false, ...proven };
  }
}
