import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { getAddress } from 'ethers';
import { EntityManager, Repository } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import { isUniqueViolation } from '../../common/database/unique-violation';
import type { RequestMeta } from '../../common/http/request-meta';
import { AppConfig } from '../../config/app.config';
import { ComplianceConfig } from '../../config/compliance.config';
import { actorOf } from '../../events/activity-event';
import { ActivityLog } from '../../events/activity-log';
import type { SourceFinding } from '../attestations/attestation-judge';
import { AttestationReaderService } from '../attestations/attestation-reader.service';
import { IssuersService } from '../credentials/issuers.service';
import { CompliancePolicy } from './compliance-policy.entity';
import { assertKnownSources, normalizePolicy } from './policy-normalize';
import {
  CompliancePolicyRules,
  DEFAULT_POLICY,
  effectiveUnknown,
  evaluatePolicy,
  listsCountries,
  PolicyDecision,
  SourceResult,
} from './policy-rules';
import { DEMO_SOURCE_NAME, zkSourceNames } from './zk-source';
import { MarketToken, normalizeTradingForMarket } from './trading-rules';
import { NetworkService } from '../../chain/network/network.service';

/** What an activation path presents besides the wallet's attestations read on chain. */
export type Presented =
  | { kind: 'attestation'; findings: SourceFinding[]; used: SourceFinding; chainTime: number }
  | { kind: 'zk'; name: string; expiresAt: number }
  | { kind: 'demo' };

/** An account's rules as applied, their version (0: the default policy) and when they were set. */
export interface StoredPolicy {
  rules: CompliancePolicyRules;
  version: number;
  updatedAt: Date | null;
}

/** A PUT that lost the race to insert an account's first row is retried (as an update) this often. */
const MAX_WRITE_ATTEMPTS = 3;

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
    private readonly network: NetworkService,
  ) {}

  async rulesOf(accountId: string): Promise<CompliancePolicyRules> {
    return (await this.stored(accountId)).rules;
  }

  /**
   * The account's rules (normalized: rows written before a member existed get its default) and
   * version. Inside a transaction pass its manager: a read on another pooled connection while the
   * transaction holds one starves the pool when many run at once (200 concurrent activity events
   * against a pool of 10 timed out waiting for a connection).
   */
  async stored(accountId: string, manager?: EntityManager): Promise<StoredPolicy> {
    const policies = manager ? manager.getRepository(CompliancePolicy) : this.policies;
    const row = await policies.findOneBy({ accountId });
    if (!row) return { rules: DEFAULT_POLICY, version: 0, updatedAt: null };
    return { rules: normalizePolicy(row.rules), version: row.version, updatedAt: row.updatedAt };
  }

  async describe(accountId: string) {
    return this.answer(await this.stored(accountId));
  }

  private async answer({ rules, version, updatedAt }: StoredPolicy) {
    return {
      ...rules,
      version,
      updatedAt: updatedAt?.toISOString() ?? null,
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

  /**
   * PUT: an upsert, one version per request. Concurrent PUTs (even the first ones of an account,
   * racing to insert its row) are serialized on the row: PostgreSQL locks it (FOR UPDATE), a lost
   * insert race is retried as an update, SQLite serializes write transactions. Each answers 200
   * with what it wrote and its version; the last to commit is the policy.
   */
  async update(principal: Principal, body: CompliancePolicyRules, meta?: RequestMeta) {
    const rules = await this.normalize(body);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.answer(await this.write(principal, rules, meta));
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= MAX_WRITE_ATTEMPTS) throw error;
      }
    }
  }

  private write(principal: Principal, rules: CompliancePolicyRules, meta?: RequestMeta) {
    const { accountId } = principal;
    return this.policies.manager.transaction(async (manager): Promise<StoredPolicy> => {
      const repository = manager.getRepository(CompliancePolicy);
      const postgres = manager.connection.options.type === 'postgres';
      const current = await repository.findOne({
        where: { accountId },
        ...(postgres ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      });
      const written = {
        accountId,
        rules,
        version: (current?.version ?? 0) + 1,
        updatedAt: new Date(),
        updatedBy: principal.userId ?? principal.apiKeyId ?? null,
      };
      // Conditional on the version read: a writer that did not hold the lock changes nothing.
      if (current) await repository.update({ accountId, version: current.version }, written);
      else await repository.insert(written);
      await this.activity.record(
        {
          accountId,
          type: 'compliance.policy_updated',
          actor: actorOf(principal),
          target: { type: 'account', id: accountId },
          data: {
            from: current ? normalizePolicy(current.rules) : DEFAULT_POLICY,
            to: rules,
            version: written.version,
          },
          request: meta ?? null,
        },
        manager,
      );
      return written;
    });
  }

  /** The dry run: the wallet's sources against the account's policy or a draft; changes nothing. */
  async evaluate(
    principal: Principal,
    wallet: string,
    draft?: CompliancePolicyRules,
    { fresh = true }: { fresh?: boolean } = {},
  ) {
    const { rules, version } = draft
      ? { rules: await this.normalize(draft), version: null }
      : await this.stored(principal.accountId);
    const { findings, chainTime } = await this.attestations.read(
      getAddress(wallet.toLowerCase()),
      undefined,
      { fresh },
    );
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
      version,
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
    // Preflight reads what the attestation index holds now (it does not wait for it).
    const { allowed, decidingRule, source, message } = await this.evaluate(
      { accountId } as Principal,
      wallet,
      undefined,
      { fresh: false },
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
      const read = await this.attestations.read(wallet, undefined, { fresh: true });
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

  /** The market's tokens (symbol, decimals): what trade rules may name. */
  market(): MarketToken[] {
    return Object.values(this.network.definition.tokens).map(({ symbol, decimals }) => ({
      symbol,
      decimals,
    }));
  }

  /** The registered ZK issuers' names (the configured "default" included), read per call. */
  private async zkNames(): Promise<string[]> {
    return zkSourceNames(await this.issuers.list());
  }

  /** The body as stored rules, every source it names known (400 INVALID_PARAMS otherwise). */
  private async normalize(body: CompliancePolicyRules): Promise<CompliancePolicyRules> {
    const rules = normalizePolicy(body);
    if (rules.trading) {
      rules.trading = normalizeTradingForMarket(rules.trading, this.market());
      if (rules.trading.enforcement === 'onchain' && this.network.definition.hookVersion !== 3)
        throw new ApiError(
          'INVALID_PARAMS',
          'trading.enforcement: "onchain" needs the market\'s pools on ComplianceHook v3',
          {
            hint: 'This network\'s hook cannot check per-trade authorizations: use "service" (the rules apply to the builds of this service), or have the operator deploy hook v3 (npm run cli -- deploy).',
            details: [
              {
                field: 'trading.enforcement',
                reason: 'INVALID_PARAMS',
                message: "the network's hook is not v3",
              },
            ],
          },
        );
    }
    assertKnownSources(
      rules,
      (await this.knownSources()).map((s) => s.name),
    );
    return rules;
  }
}

/** Whether a non-attestation path must read the wallet's attestations to apply these rules. */
function needsAttestations(rules: CompliancePolicyRules): boolean {
  return (
    rules.sources.mode === 'all' ||
    listsCountries(rules.countries) ||
    effectiveUnknown(rules.countries) === 'refuse'
  );
}
