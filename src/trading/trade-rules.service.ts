import { Injectable, OnModuleInit } from '@nestjs/common';
import { ActivityLog } from '../events/activity-log';
import { CompliancePolicyService } from '../compliance/policy/compliance-policy.service';
import {
  formatWholeUnits,
  parseWholeUnits,
  TradingRules,
} from '../compliance/policy/trading-rules';
import { TradeLedgerService, ReservationTerms } from './ledger/trade-ledger.service';
import type { TradeFacts } from './trade-facts';
import {
  dailyLimitedTokens,
  refusalError,
  refuseDaily,
  refuseWithoutLedger,
  TradeRefusal,
  TradeRule,
} from './trade-rules';

/** How long an instance keeps an account's trade rules (a change made here applies at once). */
export const TRADING_RULES_CACHE_MS = 5_000;
const MAX_CACHED_ACCOUNTS = 10_000;
/** After a change recorded here, reads are not cached this long (its transaction commits first). */
const CHANGE_SETTLE_MS = 1_000;

/** A build that passed the rules phase: what the reservation and the receipt need. */
export interface TradeCheck {
  accountId: string;
  wallet: string;
  trading: TradingRules;
  facts: TradeFacts;
}

/** One rule's result for the compliance receipt (issue 56's RuleResult shape). */
export interface TradeRuleResult {
  rule: `trading.${TradeRule}`;
  result: 'pass' | 'fail' | 'not_applicable';
  at: 'build';
  detail: string;
}

/** A daily limit as evaluate shows it: the limit, what the window holds, what is left. */
export interface DailyLimitUse {
  token: string;
  perDay: string;
  used: string;
  remaining: string;
}

/**
 * The rules phase of every build (issue 54): the account policy's trade rules on the build's
 * facts, before anything is built (403 TOKEN_NOT_ALLOWED / TRADE_LIMIT_EXCEEDED, phase
 * preflight), then, once the build is made, its reservation in the daily-limit ledger under the
 * account's lock (the same daily rule again, exact across replicas). An account without trade
 * rules costs one policy read and writes nothing.
 */
@Injectable()
export class TradeRulesService implements OnModuleInit {
  private readonly cache = new Map<string, { trading: TradingRules | null; at: number }>();
  /** When each account's policy last changed here: its rules are read, not cached, for a moment. */
  private readonly changedAt = new Map<string, number>();

  constructor(
    private readonly policy: CompliancePolicyService,
    private readonly ledger: TradeLedgerService,
    private readonly activity: ActivityLog,
  ) {}

  /**
   * The account's trade rules, or null when its policy has none: read once per account and
   * TRADING_RULES_CACHE_MS on this instance (every build asks; issue 59 keeps a build's database
   * work near none), forgotten at once when the policy changes here (the activity log), so a
   * change applies on this instance at once and on the others within the cache time. The ledger
   * itself is never cached.
   */
  async tradingOf(accountId: string): Promise<TradingRules | null> {
    const now = Date.now();
    const cached = this.cache.get(accountId);
    if (cached && now - cached.at < TRADING_RULES_CACHE_MS) return cached.trading;
    const trading = (await this.policy.rulesOf(accountId)).trading ?? null;
    // Just changed: the change's transaction may not have committed when this read ran.
    if (now - (this.changedAt.get(accountId) ?? 0) < CHANGE_SETTLE_MS) return trading;
    this.cache.set(accountId, { trading, at: now });
    if (this.cache.size > MAX_CACHED_ACCOUNTS) this.cache.delete(this.cache.keys().next().value!);
    return trading;
  }

  onModuleInit(): void {
    this.activity.addSink({
      name: 'trading-rules-cache',
      write: (event) => {
        if (event.type === 'compliance.policy_updated' && event.accountId) {
          this.cache.delete(event.accountId);
          this.changedAt.set(event.accountId, Date.now());
        }
        return Promise.resolve();
      },
    });
  }

  /**
   * Preflight: the allow-list, the per-trade limits and the daily limits as the ledger holds
   * them now (a refusal answered early; the reservation checks the daily rule again under the
   * lock). Null when the account has no trade rules or the trade gives nothing (an exit).
   */
  async check(accountId: string, wallet: string, facts: TradeFacts): Promise<TradeCheck | null> {
    const trading = await this.tradingOf(accountId);
    if (!trading || facts.tokens.length === 0) return null;
    const refusal =
      refuseWithoutLedger(trading, facts) ??
      refuseDaily(
        trading,
        facts,
        await this.ledger.used(accountId, dailyLimitedTokens(trading, facts)),
      );
    if (refusal) throw refusalError(refusal);
    return { accountId, wallet, trading, facts };
  }

  /**
   * The build is made: reserve what it gives until it is mined or expires, refusing (403
   * TRADE_LIMIT_EXCEEDED) when, under the account's lock, the daily limit no longer has room
   * (another build took it meanwhile). Answers the reservation's build id.
   */
  reserve(check: TradeCheck, terms: ReservationTerms): Promise<string> {
    return this.ledger.reserve(
      check.accountId,
      check.facts.gives.map((g) => ({ wallet: check.wallet, token: g.token, raw: g.raw })),
      terms,
      (used) => {
        const refusal = refuseDaily(check.trading, check.facts, used);
        if (refusal) throw refusalError(refusal);
      },
    );
  }

  linkReceipt(buildId: string, receiptId: string): Promise<void> {
    return this.ledger.linkReceipt(buildId, receiptId);
  }

  /** The receipt's `policy.rules` entries for a build that passed. */
  results(check: TradeCheck): TradeRuleResult[] {
    const { trading, facts } = check;
    const given = facts.gives.map((g) => `${g.amount} ${g.token}`).join(', ') || 'nothing';
    const limited = (kind: 'perTrade' | 'perDay') =>
      facts.gives.flatMap((g) => {
        const limit = trading.limits?.find((l) => l.token === g.token)?.[kind];
        return limit === undefined ? [] : [`${g.amount} of ${limit} ${g.token}`];
      });
    const perTrade = limited('perTrade');
    const perDay = limited('perDay');
    return [
      trading.tokens
        ? {
            rule: 'trading.tokens.allow',
            result: 'pass',
            at: 'build',
            detail: `${facts.tokens.join(', ')} in ${trading.tokens.allow.join(', ')}`,
          }
        : {
            rule: 'trading.tokens.allow',
            result: 'not_applicable',
            at: 'build',
            detail: 'no allow-list',
          },
      perTrade.length > 0
        ? {
            rule: 'trading.limits.perTrade',
            result: 'pass',
            at: 'build',
            detail: perTrade.join(', '),
          }
        : {
            rule: 'trading.limits.perTrade',
            result: 'not_applicable',
            at: 'build',
            detail: `no per-trade limit on ${given}`,
          },
      perDay.length > 0
        ? {
            rule: 'trading.limits.perDay',
            result: 'pass',
            at: 'build',
            detail: `${perDay.join(', ')} with the rolling 24 h, reserved (${trading.enforcement})`,
          }
        : {
            rule: 'trading.limits.perDay',
            result: 'not_applicable',
            at: 'build',
            detail: `no daily limit on ${given}`,
          },
    ];
  }

  /**
   * GET preflight's view (issue 54): the account's trade rules and each limit's use of the
   * rolling 24 h now; null when its policy has no trade rules (then nothing is read).
   */
  async preflightView(accountId: string) {
    const trading = await this.tradingOf(accountId);
    if (!trading) return null;
    const limits = trading.limits ?? [];
    const used = await this.ledger.used(
      accountId,
      limits.filter((l) => l.perDay !== undefined).map((l) => l.token),
    );
    return {
      enforcement: trading.enforcement,
      tokens: trading.tokens?.allow ?? null,
      limits: limits.map(({ token, perTrade, perDay }) => {
        const market = { symbol: token, decimals: this.decimalsOf(token) };
        const spent = used.get(token) ?? 0n;
        const limit =
          perDay === undefined
            ? null
            : parseWholeUnits(perDay, market, 'perDay', { positive: false });
        return {
          token,
          perTrade: perTrade ?? null,
          perDay: perDay ?? null,
          used: formatWholeUnits(spent, market.decimals),
          remaining:
            limit === null
              ? null
              : formatWholeUnits(limit > spent ? limit - spent : 0n, market.decimals),
        };
      }),
    };
  }

  private decimalsOf(token: string): number {
    return this.policy.market().find((t) => t.symbol === token)?.decimals ?? 18;
  }

  /**
   * The dry run (POST /compliance/policy/evaluate with a trade): the rule that would refuse it,
   * or none, and each daily limit's use now. `trading` is a draft's, else the account's.
   */
  async evaluate(accountId: string, facts: TradeFacts, trading: TradingRules | null) {
    const daily = trading?.limits?.filter((l) => l.perDay !== undefined) ?? [];
    const used = await this.ledger.used(
      accountId,
      daily.map((l) => l.token),
    );
    const refusal: TradeRefusal | null = trading
      ? (refuseWithoutLedger(trading, facts) ?? refuseDaily(trading, facts, used))
      : null;
    const decimals = (token: string) =>
      this.policy.market().find((t) => t.symbol === token)?.decimals ?? 18;
    const limits: DailyLimitUse[] = daily.map(({ token, perDay }) => {
      const market = { symbol: token, decimals: decimals(token) };
      const limit = parseWholeUnits(perDay!, market, 'perDay', { positive: false });
      const spent = used.get(token) ?? 0n;
      const left = limit > spent ? limit - spent : 0n;
      return {
        token,
        perDay: perDay!,
        used: formatWholeUnits(spent, market.decimals),
        remaining: formatWholeUnits(left, market.decimals),
      };
    });
    return {
      allowed: refusal === null,
      decidingRule: refusal ? `trading.${refusal.rule}` : null,
      code: refusal?.code ?? null,
      message:
        refusal?.message ?? (trading ? 'The trade rules allow this trade' : 'No trade rules'),
      details: refusal ? [refusal.details] : [],
      gives: facts.gives.map(({ token, amount }) => ({ token, amount })),
      dailyLimits: limits,
    };
  }
}
