import type { TradeApprovals } from '../compliance/policy/trading-rules';
import type { ApprovalGives } from './approval-request.entity';

/** `trading.approvals` of the account policy (design §10; validated by the policy, issue 54). */
export type ApprovalRules = TradeApprovals;

/** The thresholds a trade goes above: what the wallet gives of a token, strictly more than its amount. */
export function thresholdsCrossed(
  rules: Pick<ApprovalRules, 'above'> | null | undefined,
  gives: readonly ApprovalGives[],
): { token: string; amount: string; threshold: string }[] {
  if (!rules) return [];
  return rules.above.flatMap((threshold) =>
    gives
      .filter(
        (given) =>
          given.token.toUpperCase() === threshold.token.toUpperCase() &&
          compareDecimal(given.amount, threshold.amount) > 0,
      )
      .map((given) => ({ token: given.token, amount: given.amount, threshold: threshold.amount })),
  );
}

/** -1, 0, 1: two non-negative decimal strings ("2.5", "10", "0.000001") compared exactly. */
export function compareDecimal(a: string, b: string): number {
  const [ai, af = ''] = a.split('.');
  const [bi, bf = ''] = b.split('.');
  const scale = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(scale, '0'));
  const y = BigInt(bi + bf.padEnd(scale, '0'));
  return x === y ? 0 : x > y ? 1 : -1;
}
