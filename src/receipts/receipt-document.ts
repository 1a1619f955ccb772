/**
 * The receipt document, pure: the draft a build hands over, completed with what the session the
 * trade stands on was opened by (and under which policy), in the order an auditor reads it.
 */
import type { OpeningView } from './openings/session-openings';
import {
  ReceiptDraft,
  ReceiptPayload,
  RECEIPT_VERSION,
  RuleResult,
  SessionSource,
} from './receipt.types';

/** The opening of the session the build saw, or null when the service did not open that one. */
export function matchingOpening(
  opening: OpeningView | null,
  session: ReceiptDraft['session'],
): OpeningView | null {
  if (!opening || !session.active || session.activeUntil === null) return null;
  return opening.activeUntil === session.activeUntil ? opening : null;
}

export function sourcesOf(
  opening: OpeningView | null,
  session: ReceiptDraft['session'],
): SessionSource[] {
  if (!session.active) return [];
  if (!opening) return [{ kind: 'unknown' }];
  const activation = {
    ...(opening.txHash ? { activationTxHash: opening.txHash } : {}),
    ...(opening.blockNumber !== null ? { activationBlock: opening.blockNumber } : {}),
  };
  if (opening.via === 'demo') return [{ kind: 'demo', ...activation }];
  const kind = opening.via === 'attestation' ? 'attestation' : 'zk';
  const { name, uid } = opening.source ?? {};
  return [{ kind, ...(name ? { name } : {}), ...(uid ? { uid } : {}), ...activation }];
}

/**
 * The policy's rules as judged when the session was opened: every activation path enforces the
 * account's policy (sources, then countries), so a session the service opened passed them.
 */
export function activationRules(opening: OpeningView | null): RuleResult[] {
  if (!opening) {
    const detail =
      'no session this service opened: the policy was not judged for it (opened elsewhere, before receipts existed, or none)';
    return [
      { rule: 'sources', result: 'unknown', at: 'activation', detail },
      { rule: 'countries', result: 'unknown', at: 'activation', detail },
    ];
  }
  const { mode = 'any', names = [] } = opening.policy.sources ?? {};
  const { allow = [], deny = [] } = opening.policy.countries ?? {};
  const via = opening.source?.name ?? opening.via;
  return [
    {
      rule: 'sources',
      result: 'pass',
      at: 'activation',
      detail:
        `session opened by ${via}` +
        (names.length > 0
          ? `; the policy needs ${mode} of [${names.join(', ')}]`
          : '; the policy takes any accepted source'),
    },
    allow.length === 0 && deny.length === 0
      ? {
          rule: 'countries',
          result: 'not_applicable',
          at: 'activation',
          detail: 'the policy has no country rule',
        }
      : {
          rule: 'countries',
          result: 'pass',
          at: 'activation',
          detail: `allowed [${allow.join(', ')}], denied [${deny.join(', ')}]`,
        },
  ];
}

export function receiptPayload(
  id: string,
  draft: ReceiptDraft,
  storedOpening: OpeningView | null,
  issuedAt: Date,
): ReceiptPayload {
  const opening = matchingOpening(storedOpening, draft.session);
  return {
    id,
    version: RECEIPT_VERSION,
    chainId: draft.chainId,
    accountId: draft.accountId,
    wallet: draft.wallet,
    walletBound: draft.walletBound,
    operation: draft.operation,
    request: draft.request,
    route: draft.route,
    terms: draft.terms,
    approvals: draft.approvals,
    transaction: draft.transaction,
    deadline: draft.deadline,
    session: draft.session,
    policy: {
      version: draft.facts.policy.version ?? opening?.policyVersion ?? null,
      rules: [...activationRules(opening), ...draft.facts.policy.rules],
    },
    sources: sourcesOf(opening, draft.session),
    sanctions: draft.facts.sanctions,
    simulation: draft.simulation,
    tolerance: draft.tolerance,
    authorization: draft.facts.authorization,
    approval: draft.facts.approval,
    issuedAt: issuedAt.toISOString(),
  };
}
