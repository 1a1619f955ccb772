import { ApiError } from '../../common/errors/api-error';
import { normalizePolicy } from './policy-normalize';
import {
  formatWholeUnits,
  normalizeTradingForMarket,
  parseWholeUnits,
  TradingRules,
} from './trading-rules';

const MARKET = [
  { symbol: 'WETH', decimals: 18 },
  { symbol: 'tUSDC', decimals: 6 },
  { symbol: 'tWBTC', decimals: 8 },
];

/** The field the 400 names. */
function refusedField(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { code, options } = error as ApiError;
    const details = options.details as { field: string }[];
    expect(code).toBe('INVALID_PARAMS');
    return details[0].field;
  }
  throw new Error('not refused');
}

describe(normalizeTradingForMarket.name, () => {
  it('stores the market spelling (ETH as WETH), each token once, canonical amounts', () => {
    const trading: TradingRules = {
      enforcement: 'onchain',
      tokens: { allow: ['eth', 'WETH', 'TUSDC'] },
      limits: [
        { token: 'ETH', perTrade: '2.50', perDay: '5' },
        { token: 'tusdc', perDay: '1000.000001' },
      ],
      approvals: {
        above: [{ token: 'WETH', amount: '0' }],
        quorum: 2,
        roles: ['owner', 'owner'],
        ttlSeconds: 600,
      },
    };
    expect(normalizeTradingForMarket(trading, MARKET)).toEqual({
      enforcement: 'onchain',
      tokens: { allow: ['WETH', 'tUSDC'] },
      limits: [
        { token: 'WETH', perTrade: '2.5', perDay: '5' },
        { token: 'tUSDC', perDay: '1000.000001' },
      ],
      approvals: {
        above: [{ token: 'WETH', amount: '0' }],
        quorum: 2,
        roles: ['owner'],
        ttlSeconds: 600,
      },
    });
  });

  it.each([
    [{ tokens: { allow: ['WETH', 'DOGE'] } }, 'trading.tokens.allow[1]'],
    [{ limits: [{ token: 'DOGE', perTrade: '1' }] }, 'trading.limits[0].token'],
    [{ limits: [{ token: 'tUSDC', perTrade: '1.0000001' }] }, 'trading.limits[0].perTrade'],
    [{ limits: [{ token: 'WETH', perDay: '0' }] }, 'trading.limits[0].perDay'],
    [{ limits: [{ token: 'WETH' }] }, 'trading.limits[0]'],
    [
      {
        limits: [
          { token: 'WETH', perDay: '1' },
          { token: 'ETH', perDay: '2' },
        ],
      },
      'trading.limits[1].token',
    ],
    [
      {
        approvals: {
          above: [{ token: 'tWBTC', amount: '0.000000001' }],
          quorum: 1,
          roles: ['owner'],
          ttlSeconds: 60,
        },
      },
      'trading.approvals.above[0].amount',
    ],
  ])('refuses %j naming %s', (over, field) => {
    const trading = { enforcement: 'service', ...over } as TradingRules;
    expect(refusedField(() => normalizeTradingForMarket(trading, MARKET))).toBe(field);
  });

  it('keeps trading through normalizePolicy (a row read back), and leaves it out when absent', () => {
    const trading: TradingRules = {
      enforcement: 'service',
      limits: [{ token: 'WETH', perTrade: '1' }],
    };
    const rules = {
      sources: { mode: 'any' as const, names: [] },
      countries: {},
      minSessionSeconds: 0,
    };
    expect(normalizePolicy({ ...rules, trading }).trading).toEqual(trading);
    expect('trading' in normalizePolicy(rules)).toBe(false);
  });
});

describe(parseWholeUnits.name, () => {
  it('reads whole units into raw units and back', () => {
    const weth = MARKET[0];
    expect(parseWholeUnits('2.5', weth, 'f', { positive: true })).toBe(2_500_000_000_000_000_000n);
    expect(parseWholeUnits('0', weth, 'f', { positive: false })).toBe(0n);
    expect(formatWholeUnits(2_500_000_000_000_000_000n, 18)).toBe('2.5');
    expect(formatWholeUnits(1n, 6)).toBe('0.000001');
    expect(formatWholeUnits(0n, 6)).toBe('0');
    expect(() => parseWholeUnits('1e3', weth, 'f', { positive: true })).toThrow(ApiError);
    expect(() => parseWholeUnits('-1', weth, 'f', { positive: true })).toThrow(ApiError);
  });
});
