/**
 * The trade rules of an account policy applied to a trade's facts (issue 54, design §10), in a
 * fixed order, the first that refuses deciding: the token allow-list (403 TOKEN_NOT_ALLOWED),
 * each given token's per-trade limit, then its rolling 24 h limit (403 TRADE_LIMIT_EXCEEDED,
 * details[0] `{ token, limit, window, used, requested }` in whole units). Pure: what the account
 * has used in the window comes in.
 */
import { ApiError } from '../common/errors/api-error';
import type { ErrorCode } from '../common/errors/error-catalogue';
import {
  formatWholeUnits,
  parseWholeUnits,
  TradingRules,
} from '../compliance/policy/trading-rules';
import type { TokenGive, TradeFacts } from './trade-facts';

export const TRADE_RULES = ['tokens.allow', 'limits.perTrade', 'limits.perDay'] as const;
export type TradeRule = (typeof TRADE_RULES)[number];

export interface LimitDetails {
  token: string;
  limit: string;
  window: 'trade' | '24h';
  used: string;
  requested: string;
}

export interface TradeRefusal {
  rule: TradeRule;
  code: Extract<ErrorCode, 'TOKEN_NOT_ALLOWED' | 'TRADE_LIMIT_EXCEEDED'>;
  message: string;
  details: Record<string, unknown>;
}

/** Raw units used in the 24 h window, per token symbol. */
export type UsedInWindow = ReadonlyMap<string, bigint>;

/** The first rule that refuses the trade without looking at the ledger (allow-list, per trade). */
export function refuseWithoutLedger(trading: TradingRules, facts: TradeFacts): TradeRefusal | null {
  const allow = trading.tokens?.allow;
  if (allow) {
    const outside = facts.tokens.find((token) => !allow.includes(token));
    if (outside !== undefined)
      return {
        rule: 'tokens.allow',
        code: 'TOKEN_NOT_ALLOWED',
        message: `Your account's policy does not allow trading ${outside} (allowed: ${allow.join(', ') || 'none'})`,
        details: { token: outside, allowed: allow },
      };
  }
  for (const give of facts.gives) {
    const perTrade = limitOf(trading, give, 'perTrade');
    if (perTrade !== null && give.raw > perTrade)
      return limitRefusal('limits.perTrade', give, perTrade, 0n, 'trade');
  }
  return null;
}

/** The first 24 h limit the trade would cross, given what the window holds already. */
export function refuseDaily(
  trading: TradingRules,
  facts: TradeFacts,
  used: UsedInWindow,
): TradeRefusal | null {
  for (const give of facts.gives) {
    const perDay = limitOf(trading, give, 'perDay');
    const already = used.get(give.token) ?? 0n;
    if (perDay !== null && already + give.raw > perDay)
      return limitRefusal('limits.perDay', give, perDay, already, '24h');
  }
  return null;
}

/** Tokens whose 24 h use matters for these facts (they have a perDay limit). */
export function dailyLimitedTokens(trading: TradingRules, facts: TradeFacts): string[] {
  return facts.gives
    .filter((g) => trading.limits?.some((l) => l.token === g.token && l.perDay !== undefined))
    .map((g) => g.token);
}

export function refusalError(refusal: TradeRefusal): ApiError {
  return new ApiError(refusal.code, refusal.message, { details: [refusal.details] });
}

function limitOf(
  trading: TradingRules,
  give: TokenGive,
  kind: 'perTrade' | 'perDay',
): bigint | null {
  const amount = trading.limits?.find((l) => l.token === give.token)?.[kind];
  if (amount === undefined) return null;
  return parseWholeUnits(amount, { symbol: give.token, decimals: give.decimals }, kind, {
    positive: false,
  });
}

function limitRefusal(
  rule: TradeRule,
  give: TokenGive,
  limit: bigint,
  used: bigint,
  window: 'trade' | '24h',
): TradeRefusal {
  const whole = (raw: bigint) => formatWholeUnits(raw, give.decimals);
  const details: LimitDetails = {
    token: give.token,
    limit: whole(limit),
    window,
    used: whole(used),
    requested: give.amount,
  };
  const message =
    window === 'trade'
      ? `This trade gives ${give.amount} ${give.token}, over your policy's limit of ${details.limit} per trade`
      : `This trade gives ${give.amount} ${give.token}; with ${details.used} used in the last 24 hours it would pass your policy's limit of ${details.limit} per 24 hours`;
  return { rule, code: 'TRADE_LIMIT_EXCEEDED', message, details: { ...details } };
}
