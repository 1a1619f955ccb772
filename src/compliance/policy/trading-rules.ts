/**
 * The trade rules of an account policy (issue 54, design §10): which tokens the account may trade,
 * how much a wallet may give per trade and per rolling 24 hours across the account's wallets, and
 * (issue 55) which trades need approvals. Amounts are decimal strings in whole token units ("2.5"
 * WETH); symbols are the market's, ETH and WETH being one token (WETH's symbol). Pure: the market's
 * tokens come in.
 */
import { ApiError } from '../../common/errors/api-error';

export const ENFORCEMENTS = ['onchain', 'service'] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];

export interface TradeLimit {
  token: string;
  /** Most the wallet gives in one trade, whole units (decimal string). */
  perTrade?: string;
  /** Most the account's wallets give together in any 24 hours, whole units (decimal string). */
  perDay?: string;
}

export interface TradeApprovals {
  /** A trade giving more than `amount` of `token` needs approvals. */
  above: { token: string; amount: string }[];
  quorum: number;
  roles: string[];
  ttlSeconds: number;
}

export interface TradingRules {
  /** onchain: hook v3 requires a per-trade authorization this service signs; service: builds only. */
  enforcement: Enforcement;
  tokens?: { allow: string[] };
  limits?: TradeLimit[];
  approvals?: TradeApprovals;
}

/** A market token as the rules need it: its symbol and decimals. */
export interface MarketToken {
  symbol: string;
  decimals: number;
}

/** ETH is traded as WETH: a rule naming ETH names WETH (design §10 conventions). */
export const NATIVE_SYMBOL = 'ETH';
export const WRAPPED_NATIVE_SYMBOL = 'WETH';

const DECIMAL = /^(0|[1-9]\d{0,38})(\.\d{1,36})?$/;

function invalid(field: string, message: string, hint?: string): ApiError {
  return new ApiError('INVALID_PARAMS', `${field}: ${message}`, {
    ...(hint ? { hint } : {}),
    details: [{ field, reason: 'INVALID_PARAMS', message }],
  });
}

/** The market's symbol for `asked` (any case; ETH is WETH), or 400 naming the field. */
export function marketSymbol(
  asked: string,
  market: readonly MarketToken[],
  field: string,
): MarketToken {
  const wanted = asked.toUpperCase() === NATIVE_SYMBOL ? WRAPPED_NATIVE_SYMBOL : asked;
  const token = market.find((t) => t.symbol.toLowerCase() === wanted.toLowerCase());
  if (!token)
    throw invalid(
      field,
      `${asked} is not a token of this market`,
      `Tokens of this market: ${[NATIVE_SYMBOL, ...market.map((t) => t.symbol)].join(', ')} (ETH counts as WETH; GET /api/v1/defi/config).`,
    );
  return token;
}

/** Raw units of a whole-unit decimal string, or 400 naming the field (too many decimals, not a number). */
export function parseWholeUnits(
  amount: string,
  token: MarketToken,
  field: string,
  { positive }: { positive: boolean },
): bigint {
  const match = DECIMAL.exec(amount);
  if (!match)
    throw invalid(
      field,
      `"${amount}" is not a decimal amount in whole ${token.symbol} (e.g. "2.5")`,
    );
  const fraction = match[2]?.slice(1) ?? '';
  if (fraction.length > token.decimals)
    throw invalid(
      field,
      `"${amount}" has ${fraction.length} decimals; ${token.symbol} has ${token.decimals}`,
    );
  const raw = BigInt(match[1] + fraction.padEnd(token.decimals, '0'));
  if (positive && raw === 0n) throw invalid(field, `must be more than 0 ${token.symbol}`);
  return raw;
}

/** Raw units as a whole-unit decimal string without trailing zeros ("2500000000000000000" -> "2.5"). */
export function formatWholeUnits(raw: bigint, decimals: number): string {
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The same amount written canonically ("2.50" -> "2.5", "02" refused by the pattern). */
const canonical = (amount: string, token: MarketToken, field: string, positive: boolean) =>
  formatWholeUnits(parseWholeUnits(amount, token, field, { positive }), token.decimals);

/**
 * The stored form of a validated body's `trading`, checked against the market: symbols as the
 * market spells them (ETH as WETH), each token once, amounts canonical and within the token's
 * decimals. 400 INVALID_PARAMS naming the field otherwise.
 */
export function normalizeTradingForMarket(
  trading: TradingRules,
  market: readonly MarketToken[],
): TradingRules {
  const out: TradingRules = { enforcement: trading.enforcement };
  if (trading.tokens !== undefined) {
    const allow = trading.tokens.allow.map(
      (s, i) => marketSymbol(s, market, `trading.tokens.allow[${i}]`).symbol,
    );
    out.tokens = { allow: [...new Set(allow)] };
  }
  if (trading.limits !== undefined) {
    const seen = new Set<string>();
    out.limits = trading.limits.map((limit, i) => {
      const field = `trading.limits[${i}]`;
      const token = marketSymbol(limit.token, market, `${field}.token`);
      if (seen.has(token.symbol))
        throw invalid(`${field}.token`, `${token.symbol} has a limit already (one per token)`);
      seen.add(token.symbol);
      if (limit.perTrade === undefined && limit.perDay === undefined)
        throw invalid(field, 'set perTrade, perDay or both');
      return {
        token: token.symbol,
        ...(limit.perTrade !== undefined && {
          perTrade: canonical(limit.perTrade, token, `${field}.perTrade`, true),
        }),
        ...(limit.perDay !== undefined && {
          perDay: canonical(limit.perDay, token, `${field}.perDay`, true),
        }),
      };
    });
  }
  if (trading.approvals !== undefined) {
    const { above, quorum, roles, ttlSeconds } = trading.approvals;
    const seen = new Set<string>();
    out.approvals = {
      above: above.map((threshold, i) => {
        const field = `trading.approvals.above[${i}]`;
        const token = marketSymbol(threshold.token, market, `${field}.token`);
        if (seen.has(token.symbol))
          throw invalid(
            `${field}.token`,
            `${token.symbol} has a threshold already (one per token)`,
          );
        seen.add(token.symbol);
        return {
          token: token.symbol,
          amount: canonical(threshold.amount, token, `${field}.amount`, false),
        };
      }),
      quorum,
      roles: [...new Set(roles)],
      ttlSeconds,
    };
  }
  return out;
}

/**
 * A stored `trading` as applied (rows are written normalized; this keeps members by name, so a
 * member added later is one more line). Pure, idempotent.
 */
export function normalizeTrading(trading: TradingRules): TradingRules {
  return {
    enforcement: trading.enforcement,
    ...(trading.tokens !== undefined && { tokens: { allow: [...trading.tokens.allow] } }),
    ...(trading.limits !== undefined && {
      limits: trading.limits.map(({ token, perTrade, perDay }) => ({
        token,
        ...(perTrade !== undefined && { perTrade }),
        ...(perDay !== undefined && { perDay }),
      })),
    }),
    ...(trading.approvals !== undefined && {
      approvals: {
        above: trading.approvals.above.map(({ token, amount }) => ({ token, amount })),
        quorum: trading.approvals.quorum,
        roles: [...trading.approvals.roles],
        ttlSeconds: trading.approvals.ttlSeconds,
      },
    }),
  };
}
