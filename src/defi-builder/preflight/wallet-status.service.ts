/**
 * GET /defi/preflight/:address (spec §7 rule 3): where a wallet stands, from the preflight phase
 * (no session required), with the next actions that move it forward. Every token of the market is
 * read by default, or those `?tokens=` names (design §10), in the same single batched read. A
 * wallet the sanctions oracle lists is reported as such (`session.sanctioned`, never active),
 * read in that batch, without waiting for the screening watcher to revoke its session.
 */
import { Injectable } from '@nestjs/common';
import type { Principal } from '../../auth/principal';
import { SPEND_USES, type WalletState } from '../../chain/encoding/wallet-reads';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import type { NextAction, PreflightResponse } from '../defi-builder.types';
import { CompliancePolicyService } from '../../compliance/policy/compliance-policy.service';
import { PreflightService } from './preflight.service';
import { TradeRulesService } from '../../trading/trade-rules.service';
import { planSpend } from './spend-plan';
import { checksumAddress } from '../../common/address/checksum-address';

const ACTIVATION_ENDPOINTS = [
  'POST /onboarding/activate-session-demo (test network)',
  'POST /verify (zero-knowledge proof, production)',
  'POST /onboarding/activate-session-attestation (an EAS attestation the wallet holds)',
];

/**
 * The market's symbols `?tokens=` names (any case; ETH, native, is always read), or undefined
 * for every token. A symbol the market does not list is 400 UNSUPPORTED_TOKEN naming the others.
 */
export function requestedSymbols(
  network: NetworkDefinition,
  tokens: string | undefined,
): string[] | undefined {
  if (tokens === undefined) return undefined;
  const listed = Object.keys(network.tokens);
  const symbols = new Set<string>();
  for (const asked of tokens.split(',')) {
    if (asked.toUpperCase() === 'ETH') continue;
    const symbol = listed.find((s) => s.toLowerCase() === asked.toLowerCase());
    if (!symbol)
      throw new ApiError(
        'UNSUPPORTED_TOKEN',
        `tokens: ${asked} is not a token of this market (${['ETH', ...listed].join(', ')})`,
        { details: [{ field: 'tokens', symbol: asked, listed: ['ETH', ...listed] }] },
      );
    symbols.add(symbol);
  }
  return [...symbols];
}

@Injectable()
export class WalletStatusService {
  constructor(
    private readonly preflight: PreflightService,
    private readonly policy: CompliancePolicyService,
    private readonly trading: TradeRulesService,
  ) {}

  async status(
    address: string,
    principal: Principal | undefined,
    tokens?: string,
  ): Promise<PreflightResponse> {
    let symbols: string[] | undefined;
    const pre = await this.preflight.run({
      userAddress: address,
      principal,
      buildOnly: false,
      session: 'none',
      reportSanctioned: true,
      tokens: {},
      walletTokens: (network) => {
        symbols = requestedSymbols(network, tokens) ?? Object.keys(network.tokens);
        return symbols;
      },
    });
    const { network, state } = pre;
    const read = symbols ?? Object.keys(network.tokens);
    // A stored policy costs two more reads (the wallet's attestations); the default costs none.
    const policy = principal
      ? await this.policy.preflightResult(principal.accountId, pre.user)
      : null;
    // The account's trade rules and what its wallets used of the day (issue 54).
    const trading = principal ? await this.trading.preflightView(principal.accountId) : null;
    const session = {
      active: pre.session.active && !state.sanctioned,
      activeUntil: pre.session.activeUntil,
      sanctioned: state.sanctioned,
    };
    return {
      address: checksumAddress(address),
      chainId: network.chainId,
      walletBound: pre.walletBound,
      session,
      balances: {
        ETH: state.balances.ETH.toString(),
        ...Object.fromEntries(read.map((s) => [s, state.balances[s].toString()])),
      },
      allowances: {
        swap: byToken(read, (s) => state.effective.swap[s]),
        liquidity: byToken(read, (s) => state.effective.liquidity[s]),
      },
      // A listed wallet has nothing to do here: activations and every build refuse it.
      nextActions: state.sanctioned ? [] : nextActions(network, state, read, pre.walletBound),
      ...(policy ? { policy } : {}),
      ...(trading ? { trading } : {}),
    };
  }
}

function byToken(symbols: string[], amount: (symbol: string) => bigint): Record<string, string> {
  return Object.fromEntries(symbols.map((s) => [s, amount(s).toString()]));
}

function nextActions(
  network: NetworkDefinition,
  state: WalletState,
  symbols: string[],
  walletBound: boolean,
): NextAction[] {
  const actions: NextAction[] = [];
  if (!walletBound) {
    actions.push({
      action: 'bindWallet',
      description: 'Optional: bind this wallet to your account so no other account can use it.',
      endpoint: 'POST /onboarding/register',
    });
  }
  if (!state.session.active) {
    actions.push({
      action: 'activateSession',
      description:
        'Swaps and mints revert on-chain until the wallet has an active compliance session.',
      endpoints: ACTIVATION_ENDPOINTS,
    });
  }
  const erc20Listed = new Set<string>();
  for (const use of SPEND_USES) {
    // Without a requested amount, "enough" means the wallet can spend all it holds (at least 1 unit).
    const needs = symbols.map((symbol) => ({
      symbol,
      amount: state.balances[symbol] > 0n ? state.balances[symbol] : 1n,
    }));
    for (const step of planSpend(network, state, { use, needs }).approvals) {
      // token -> Permit2 serves both uses: list it once.
      if (step.kind === 'erc20' && erc20Listed.has(step.token)) continue;
      if (step.kind === 'erc20') erc20Listed.add(step.token);
      actions.push({
        action: 'approve',
        use,
        token: step.token,
        symbol: step.symbol,
        spender: step.spender,
        spenderName: step.spenderName,
        transaction: step.transaction,
        description: step.description,
      });
    }
  }
  return actions;
}
