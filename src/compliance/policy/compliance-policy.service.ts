import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { getAddress } from 'ethers';
import { Repository } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import type { RequestMeta } from '../../common/http/request-meta';
import { AppConfig } from '../../config/app.config';
import { ComplianceConfig } from '../../config/compliance.config';
import { actorOf } from '../../events/activity-event';
import { ActivityLog } from '../../events/activity-log';
import type { SourceFinding } from '../attestations/attestation-judge';
import { AttestationReaderService } from '../attestations/attestation-reader.service';
import { IssuersService } from '../credentials/issuers.service';
import { CompliancePolicy } from './compliance-policy.entity';
import {
  CompliancePolicyRules,
  DEFAULT_POLICY,
  evaluatePolicy,
  PolicyDecision,
  SourceResult,
} from './policy-rules';
import { DEMO_SOURCE_NAME, zkSourceNames } from './zk-source';

/** What an activation path presents besides the wallet's attestations read on chain. */
export type Presented =
  | { kind: 'attestation'; findings: SourceFinding[]; used: SourceFinding; chainTime: number }
  | { kind: 'zk'; name: string; expiresAt: number }
  | { kind: 'demo' };

export function resultOf(f: SourceFinding): SourceResult {
  return {
    name: f.source.name,
    kind: f.source.kind,
    ok: f.reason === 'ok',
    reason: f.reason,
    ...(f.source.kind === 'country' ? { country: f.country } : {}),
    expiresAt: f.expirationTime,
  };
}

/**
 * An account's compliance policy (design §9): stored per account, set by owners and admins
 * (audited, webhook `compliance.policy_updated`), applied by every activation path and evaluated
 * in a dry run. An account without a row has the default policy: any accepted source, no country
 * rule, no shortest session.
 */
@Injectable()
export class CompliancePolicyService {
  constructor(
    @InjectRepository(CompliancePolicy) private readonly policies: Repository<CompliancePolicy>,
    private readonly attestations: AttestationReaderService,
    private readonly issuers: IssuersService,
    private readonly activity: ActivityLog,
    private readonly app: AppConfig,
    private readonly config: ComplianceConfig,
  ) {}

  async rulesOf(accountId: string): Promise<CompliancePolicyRules> {
    const row = await this.policies.findOneBy({ accountId });
    return row?.rules ?? DEFAULT_POLICY;
  }

  async describe(accountId: string) {
    const row = await this.policies.findOneBy({ accountId });
    return {
      ...(row?.rules ?? DEFAULT_POLICY),
      updatedAt: row?.updatedAt.toISOString() ?? null,
      knownSources: await this.knownSources(),
    };
  }

  /** Source names a policy may list: the network's attestation sources, ZK issuers, demo. */
  async knownSources(): Promise<{ name: string; kind: string }[]> {
    return [
      ...this.attestations.sources.map((s) => ({ name: s.name, kind: s.kind })),
      ...(await this.zkNames()).map((name) => ({ name, kind: 'zk' })),
      ...(this.app.mode === 'demo' ? [{ name: DEMO_SOURCE_NAME, kind: 'demo' }] : []),
    ];
  }

  async update(principal: Principal, rules: CompliancePolicyRules, meta?: RequestMeta) {
    const normalized = await this.normalize(rules);
    const before = await this.rulesOf(principal.accountId);
    await this.policies.manager.transaction(async (manager) => {
      await manager.getRepository(CompliancePolicy).save({
        accountId: principal.accountId,
        rules: normalized,
        updatedAt: new Date(),
        updatedBy: principal.userId ?? principal.apiKeyId ?? null,
      });
      await this.activity.record(
        {
          accountId: principal.accountId,
          type: 'compliance.policy_updated',
          actor: actorOf(principal),
          target: { type: 'account', id: principal.accountId },
          data: { from: before, to: normalized },
          request: meta ?? null,
        },
        manager,
      );
    });
    return this.describe(principal.accountId);
  }

  /** The dry run: the wallet's sources against the account's policy or a draft; changes nothing. */
  async evaluate(principal: Principal, wallet: string, draft?: CompliancePolicyRules) {
    const rules = draft ? await this.normalize(draft) : await this.rulesOf(principal.accountId);
    const { findings, chainTime } = await this.attestations.read(getAddress(wallet.toLowerCase()));
    const sources = [
      ...findings.map(resultOf),
      ...(await this.zkNames()).map((name) => ({
        name,
        kind: 'zk' as const,
        ok: false,
        reason: 'proof_required',
      })),
    ];
    const decision = evaluatePolicy(rules, sources, this.sessionSeconds(sources, chainTime));
    return {
      walletAddress: getAddress(wallet.toLowerCase()),
      allowed: decision.allowed,
      decidingRule: decision.decidingRule,
      source: decision.source,
      message: decision.message,
      sources: decision.sources.map(({ name, kind, ok, reason, country }) => ({
        name,
        kind,
        ok,
        reason,
        ...(country !== undefined ? { country } : {}),
      })),
    };
  }

  /**
   * Preflight's view: the wallet against the account's policy, or null while the account keeps
   * the default one (then preflight stays one chain read).
   */
  async preflightResult(accountId: string, wallet: string) {
    const row = await this.policies.findOneBy({ accountId });
    if (!row) return null;
    const { allowed, decidingRule, source, message } = await this.evaluate(
      { accountId } as Principal,
      wallet,
    );
    return { allowed, decidingRule, source, message };
  }

  /**
   * Every activation path calls this before the attester sends anything: 403
   * COMPLIANCE_POLICY_REFUSED naming the rule and the source, or the decision (allowed).
   */
  async enforce(accountId: string, wallet: string, presented: Presented): Promise<PolicyDecision> {
    const rules = await this.rulesOf(accountId);
    let attestationResults: SourceResult[] = [];
    let chainTime: number | null = null;
    if (presented.kind === 'attestation') {
      attestationResults = presented.findings.map(resultOf);
      chainTime = presented.chainTime;
    } else if (needsAttestations(rules)) {
      const read = await this.attestations.read(wallet);
      attestationResults = read.findings.map(resultOf);
      chainTime = read.chainTime;
    }
    const own: SourceResult[] =
      presented.kind === 'zk'
        ? [
            {
              name: presented.name,
              kind: 'zk',
              ok: true,
              reason: 'ok',
              expiresAt: presented.expiresAt,
            },
          ]
        : presented.kind === 'demo'
          ? [{ name: DEMO_SOURCE_NAME, kind: 'demo', ok: true, reason: 'ok', expiresAt: 0 }]
          : [];
    // The path's own source is what opens the session; others only count for the rules.
    const sources = [...own, ...attestationResults];
    const opening = presented.kind === 'attestation' ? [resultOf(presented.used)] : own;
    const decision = evaluatePolicy(rules, sources, this.sessionSeconds(opening, chainTime));
    if (!decision.allowed)
      throw new ApiError(
        'COMPLIANCE_POLICY_REFUSED',
        `Your compliance policy refuses ${getAddress(wallet)}: ${decision.message}`,
        {
          details: [
            { rule: decision.decidingRule, source: decision.source, message: decision.message },
          ],
        },
      );
    return decision;
  }

  /** The session an activation would open now: SESSION_TTL_SECONDS, cut at the sources' expiry. */
  private sessionSeconds(sources: SourceResult[], chainTime: number | null): number | null {
    const now = chainTime ?? Math.floor(Date.now() / 1000);
    const ends = sources.filter((s) => s.ok && s.expiresAt).map((s) => s.expiresAt!);
    const notAfter = ends.length > 0 ? Math.min(...ends) : Infinity;
    if (!sources.some((s) => s.ok)) return null;
    return Math.min(this.config.sessionTtlSeconds, notAfter - now);
  }

  /** The registered ZK issuers' names (the configured "default" included), read per call. */
  private async zkNames(): Promise<string[]> {
    return zkSourceNames(await this.issuers.list());
  }

  private async normalize(rules: CompliancePolicyRules): Promise<CompliancePolicyRules> {
    const known = new Set((await this.knownSources()).map((s) => s.name));
    const unknown = rules.sources.names.filter((n) => !known.has(n));
    if (unknown.length > 0)
      throw new ApiError(
        'INVALID_PARAMS',
        `Unknown source ${unknown.join(', ')} in sources.names`,
        {
          hint: `Known sources: ${[...known].join(', ')}.`,
          details: [
            {
              field: 'sources.names',
              reason: 'INVALID_PARAMS',
              message: `unknown: ${unknown.join(', ')}`,
            },
          ],
        },
      );
    const upper = (list?: string[]) =>
      list === undefined ? undefined : [...new Set(list.map((c) => c.toUpperCase()))];
    const countries: CompliancePolicyRules['countries'] = {};
    if (rules.countries?.allow !== undefined) countries.allow = upper(rules.countries.allow);
    if (rules.countries?.deny !== undefined) countries.deny = upper(rules.countries.deny);
    return {
      sources: { mode: rules.sources.mode, names: [...new Set(rules.sources.names)] },
      countries,
      minSessionSeconds: rules.minSessionSeconds ?? 0,
    };
  }
}

/** Whether a non-attestation path must read the wallet's attestations to apply these rules. */
function needsAttestations(rules: CompliancePolicyRules): boolean {
  return (
    rules.sources.mode === 'all' ||
    (rules.countries.allow?.length ?? 0) > 0 ||
    (rules.countries.deny?.length ?? 0) > 0
  );
}
