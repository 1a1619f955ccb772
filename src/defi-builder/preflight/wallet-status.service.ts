/**
 * GET /defi/preflight/:address (spec §7 rule 3): where a wallet stands, from the preflight phase
 * (no session required), with the next actions that move it forward.
 */
import { Injectable } from '@nestjs/common';
import type { Principal } from '../../auth/principal';
import { SPEND_USES } from '../../chain/encoding/wallet-reads';
import { SPEC_TOKENS } from '../../chain/network/market-definition';
import type { NextAction, PreflightResponse } from '../defi-builder.types';
import { CompliancePolicyService } from '../../compliance/policy/compliance-policy.service';
import { PreflightService } from './preflight.service';
import { planSpend } from './spend-plan';
import { checksumAddress } from '../../common/address/checksum-address';

const ACTIVATION_ENDPOINTS = [
  'POST /onboarding/activate-session-demo (test network)',
  'POST /verify (zero-knowledge proof, production)',
  'POST /onboarding/activate-session-attestation (an EAS attestation the wallet holds)',
];

@Injectable()
export class WalletStatusService {
  constructor(
    private readonly preflight: PreflightService,
    private readonly policy: CompliancePolicyService,
  ) {}

  async status(address: string, principal: Principal | undefined): Promise<PreflightResponse> {
    const pre = await this.preflight.run({
      userAddress: address,
      principal,
      buildOnly: false,
      session: 'none',
      tokens: {},
      // The spec's pair, as the response lists it (other tokens' approvals come with their builds).
      walletTokens: () => SPEC_TOKENS,
    });
    const { network, state, session } = pre;
    // A stored policy costs two more reads (the wallet's attestations); the default costs none.
    const policy = principal
      ? await this.policy.preflightResult(principal.accountId, pre.user)
      : null;
    const nextActions: NextAction[] = [];
    if (!pre.walletBound) {
      nextActions.push({
        action: 'bindWallet',
        description: 'Optional: bind this wallet to your account so no other account can use it.',
        endpoint: 'POST /onboarding/register',
      });
    }
    if (!session.active) {
      nextActions.push({
        action: 'activateSession',
        description:
          'Swaps and mints revert on-chain until the wallet has an active compliance session.',
        endpoints: ACTIVATION_ENDPOINTS,
      });
    }
    const erc20Listed = new Set<string>();
    for (const use of SPEND_USES) {
      // Without a requested amount, "enough" means the wallet can spend all it holds (at least 1 unit).
      const needs = SPEC_TOKENS.map((symbol) => ({
        symbol,
        amount: state.balances[symbol] > 0n ? state.balances[symbol] : 1n,
      }));
      for (const step of planSpend(network, state, { use, needs }).approvals) {
        // token -> Permit2 serves both uses: list it once.
        if (step.kind === 'erc20' && erc20Listed.has(step.token)) continue;
        if (step.kind === 'erc20') erc20Listed.add(step.token);
        nextActions.push({
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
    const allowances = (use: (typeof SPEND_USES)[number]) => ({
      WETH: state.effective[use].WETH.toString(),
      tUSDC: state.effective[use].tUSDC.toString(),
    });
    return {
      address: checksumAddress(address),
      chainId: network.chainId,
      walletBound: pre.walletBound,
      session,
      balances: {
        ETH: state.balances.ETH.toString(),
        WETH: state.balances.WETH.toString(),
        tUSDC: state.balances.tUSDC.toString(),
      },
      allowances: { swap: allowances('swap'), liquidity: allowances('liquidity') },
      nextActions,
      ...(policy ? { policy } : {}),
    };
  }
}
