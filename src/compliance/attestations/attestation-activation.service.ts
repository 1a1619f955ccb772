import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { getAddress } from 'ethers';
import { LessThan, Repository } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import type { RequestMeta } from '../../common/http/request-meta';
import { ComplianceActivity } from '../compliance-activity';
import { SessionAdmission } from '../session-admission';
import { closestFinding, codeOfReason, SourceFinding } from './attestation-judge';
import { AttestationReaderService } from './attestation-reader.service';
import { AttestationSession } from './attestation-session.entity';

export interface AttestationActivation {
  walletAddress: string;
  activeUntil: string;
  activeUntilUnix: number;
  /** null when the open session was answered as it is (alreadyActive): nothing was sent. */
  txHash: string | null;
  blockNumber: number | null;
  alreadyActive: boolean;
  source: { kind: 'attestation'; name: string; uid: string };
}

const DAY = 86_400;

const REASON_TEXT: Record<SourceFinding['reason'], string> = {
  ok: 'valid',
  not_found: 'no attestation of this schema is indexed for the wallet',
  other_attester: "the indexed attestation was made by another attester than the source's",
  other_schema: "the indexed attestation is of another schema than the source's",
  other_recipient: 'the indexed attestation names another recipient',
  not_verified: "the attestation's data does not verify (verifiedAccount false, or no country)",
  revoked: 'the attestation was revoked',
  expired: 'the attestation has expired',
};

/**
 * POST /onboarding/activate-session-attestation: a wallet's attestation of an accepted source
 * (unrevoked, unexpired, of the source's attester and schema) opens or renews its session, which
 * never outlives the attestation. Order: source named (403) -> on-chain findings (403) -> the
 * shared admission (sanctions, policy, ownership, binding, an open session answered as it is:
 * SessionAdmission) -> the wallet's activation limit (429) -> activation (502/503).
 */
@Injectable()
export class AttestationActivationService {
  constructor(
    private readonly attestations: AttestationReaderService,
    private readonly admission: SessionAdmission,
    private readonly activity: ComplianceActivity,
    @InjectRepository(AttestationSession)
    private readonly opened: Repository<AttestationSession>,
  ) {}

  async activate(
    principal: Principal,
    wallet: string,
    sourceName?: string,
    meta?: RequestMeta,
  ): Promise<AttestationActivation> {
    const walletAddress = getAddress(wallet.toLowerCase());
    const usable = this.acceptedSources(sourceName);
    // Every source is read (one batch): the policy's rules may need the others (a country).
    const { findings, chainTime } = await this.attestations.read(walletAddress, undefined, {
      fresh: true,
    });
    const candidates = findings.filter((f) => usable.includes(f.source));
    const valid = candidates.find((f) => f.reason === 'ok');
    if (!valid) throw refusal(walletAddress, candidates);
    const presented = {
      kind: 'attestation' as const,
      findings,
      used: valid,
      chainTime: chainTime!,
    };
    const notAfter = valid.expirationTime === 0 ? undefined : valid.expirationTime;
    const source = { kind: 'attestation' as const, name: valid.source.name, uid: valid.uid! };
    const { current } = await this.admission.admit({
      principal,
      wallet: walletAddress,
      presented,
      notAfter,
      meta,
    });
    if (current)
      return { ...current, txHash: null, blockNumber: null, alreadyActive: true, source };
    const session = await this.admission.open(walletAddress, notAfter);
    // Which attestation opened this session: the screening watcher ends it once EAS revokes it.
    // Housekeeping on the write path: a session that ended a day ago is no one's current one.
    await this.opened.delete({ sessionUntil: LessThan(Math.floor(Date.now() / 1000) - DAY) });
    await this.opened.insert({
      walletAddress,
      sessionUntil: session.activeUntilUnix,
      source: source.name,
      uid: source.uid,
    });
    await this.activity.sessionActivated(principal, session, { via: 'attestation', source }, meta);
    return { ...session, alreadyActive: false, source };
  }

  /** The sources an activation may use: the one named, or every accepted one (account kind first). */
  private acceptedSources(name?: string) {
    const all = this.attestations.sources;
    if (all.length === 0)
      throw new ApiError(
        'ATTESTATION_SOURCE_NOT_ACCEPTED',
        'This network accepts no attestation source',
        {
          hint: "The operator lists accepted sources in the network file's compliance.attestationSources (docs/operators/compliance-operations.md).",
        },
      );
    if (name === undefined) return all;
    const named = all.filter((s) => s.name === name);
    if (named.length === 0)
      throw new ApiError(
        'ATTESTATION_SOURCE_NOT_ACCEPTED',
        `No accepted attestation source is named ${name}`,
        {
          hint: `Accepted sources: ${all.map((s) => s.name).join(', ')}.`,
          details: [
            {
              field: 'source',
              reason: 'ATTESTATION_SOURCE_NOT_ACCEPTED',
              message: `unknown source ${name}`,
            },
          ],
        },
      );
    return named;
  }
}

function refusal(wallet: string, findings: SourceFinding[]): ApiError {
  const closest = closestFinding(findings)!;
  const code = codeOfReason(closest.reason as Exclude<SourceFinding['reason'], 'ok'>);
  return new ApiError(
    code,
    `Wallet ${wallet} has no valid attestation of an accepted source: ${closest.source.name}: ${REASON_TEXT[closest.reason]}`,
    {
      details: findings.map((f) => ({
        source: f.source.name,
        reason: f.reason,
        uid: f.uid,
        message: REASON_TEXT[f.reason],
      })),
    },
  );
}
