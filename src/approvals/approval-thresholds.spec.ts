import { approvalFingerprint } from './approval-fingerprint';
import { compareDecimal, thresholdsCrossed } from './approval-thresholds';

describe('thresholdsCrossed', () => {
  const rules = { above: [{ token: 'tUSDC', amount: '1000' }] };

  it('names a threshold only when what the wallet gives is strictly above it', () => {
    expect(thresholdsCrossed(rules, [{ token: 'tUSDC', amount: '1000' }])).toEqual([]);
    expect(thresholdsCrossed(rules, [{ token: 'tUSDC', amount: '1000.000001' }])).toEqual([
      { token: 'tUSDC', amount: '1000.000001', threshold: '1000' },
    ]);
    expect(thresholdsCrossed(rules, [{ token: 'WETH', amount: '5000' }])).toEqual([]);
    expect(thresholdsCrossed(null, [{ token: 'tUSDC', amount: '5000' }])).toEqual([]);
  });

  it('compares decimal strings exactly', () => {
    expect(compareDecimal('2.5', '2.50')).toBe(0);
    expect(compareDecimal('0.1', '0.09')).toBe(1);
    expect(compareDecimal('10', '9.999999999999999999')).toBe(1);
    expect(compareDecimal('1', '1.000000000000000001')).toBe(-1);
  });
});

describe('approvalFingerprint', () => {
  const body = {
    userAddress: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01',
    tokenIn: '0x0000000000000000000000000000000000000001',
    amountIn: '1500',
    slippageBps: 50,
  };

  it('is the same for the same trade: key order, address case, approvalId and deadline aside', () => {
    const again = {
      slippageBps: 50,
      amountIn: '1500',
      approvalId: 'f5b7c2a0-0000-4000-8000-000000000000',
      deadline: 1_900_000_000,
      tokenIn: '0x0000000000000000000000000000000000000001',
      userAddress: body.userAddress.toLowerCase(),
    };
    expect(approvalFingerprint('swap', 1, again)).toBe(approvalFingerprint('swap', 1, body));
  });

  it('differs for another amount, route bound, operation or chain', () => {
    const base = approvalFingerprint('swap', 1, body);
    expect(approvalFingerprint('swap', 1, { ...body, amountIn: '1501' })).not.toBe(base);
    expect(approvalFingerprint('swap', 1, { ...body, slippageBps: 51 })).not.toBe(base);
    expect(approvalFingerprint('mint', 1, body)).not.toBe(base);
    expect(approvalFingerprint('swap', 2, body)).not.toBe(base);
  });
});
