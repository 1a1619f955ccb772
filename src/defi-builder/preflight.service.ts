/**
 * The preflight phase shared by swap, liquidity and GET preflight (spec §7 order): wallet
 * ownership (403), then the on-chain reads in ONE Multicall3 eth_call, then the session gate
 * (412 unless buildOnly) and the Permit2 allowance plan (200 + warning + approvals).
 */
import { Inject, Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import type { Principal } from '../auth/principal';
import type { NetworkDefinition } from '../chain/network/network.types';
import { ApiError } from '../common/errors/api-error';
import { ERROR_CATALOGUE } from '../common/errors/error-catalogue';
import { WalletsService } from '../compliance/wallets/wallets.service';
import { DEFI_CHAIN, DefiChain } from './chain/defi-chain.port';
import { ApprovalStep, effectiveAllowance, planApprovals } from './encoding/approvals';
import {
  BatchTarget,
  buildPreflightBatch,
  TOKEN_SYMBOLS,
  TokenSymbol,
  WalletReads,
} from './encoding/preflight-batch';
import { CALIBRATED_GAS } from './gas';
import type { NextAction, PreflightResponse, SessionView, Warning } from './defi-builder.types';

export type SpendUse = 'swap' | 'liquidity';

const ACTIVATION_ENDPOINTS = [
  'POST /onboarding/activate-session-demo (test network)',
  'POST /verify (zero-knowledge proof, production)',
];

@Injectable()
export class PreflightService {
  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly wallets: WalletsService,
  ) {}

  network(): NetworkDefinition {
    return this.chain.network();
  }

  /** 403 when the wallet is bound to another account; returns whether it is bound to the caller's. */
  async assertOwnership(address: string, principal: Principal | undefined): Promise<boolean> {
    const wallet = await this.wallets.findByAddress(address);
    if (!wallet) return false;
    if (wallet.accountId !== principal?.accountId) {
      throw new ApiError(
        'INSTITUTION_OWNERSHIP_MISMATCH',
        `Wallet ${getAddress(address)} is bound to another account`,
      );
    }
    return true;
  }

  /** Session, balances, allowances (+ slot0 / quote when asked) in ONE eth_call. */
  async read(
    wallet: string,
    extra: Pick<BatchTarget, 'slot0' | 'quote'> = {},
  ): Promise<WalletReads> {
    const network = this.chain.network();
    const batch = buildPreflightBatch({
      wallet,
      contracts: network.contracts,
      tokens: { WETH: network.tokens.WETH.address, tUSDC: network.tokens.tUSDC.address },
      poolKey: network.pool,
      ...extra,
    });
    const reads = batch.decode(await this.chain.aggregate3(batch.calls));
    // The next block is at least as late as both clocks: a quiet chain's latest block can lag real
    // time, so judge sessions and Permit2 expiries (and default deadlines) by the later of the two.
    const serverNow = BigInt(Math.floor(Date.now() / 1000));
    if (serverNow > reads.blockTimestamp) reads.blockTimestamp = serverNow;
    return reads;
  }

  session(reads: WalletReads): SessionView {
    return {
      active: reads.activeUntil > reads.blockTimestamp,
      activeUntil: reads.activeUntil > 0n ? isoOf(reads.activeUntil) : null,
    };
  }

  /** Spec §4 rules 1-2: 412 without an active session, unless the caller asked for buildOnly. */
  assertSession(wallet: string, reads: WalletReads, buildOnly: boolean): SessionView {
    const session = this.session(reads);
    if (!session.active && !buildOnly) {
      const detail = session.activeUntil
        ? `ended at ${session.activeUntil}`
        : 'was never opened or was revoked';
      throw new ApiError(
        'SESSION_NOT_ACTIVE',
        `Wallet ${getAddress(wallet)} has no active compliance session (it ${detail})`,
        {
          extra: { activeUntil: session.activeUntil },
        },
      );
    }
    return session;
  }

  /** Approval transactions (in broadcast order) for `use`, and the matching warning when any is needed. */
  planSpend(
    reads: WalletReads,
    use: SpendUse,
    needs: Array<{ symbol: TokenSymbol; amount: bigint }>,
  ): { approvals: ApprovalStep[]; warnings: Warning[] } {
    const network = this.chain.network();
    const approvals = planApprovals(
      needs.map(({ symbol, amount }) => ({
        token: network.tokens[symbol].address,
        amount,
        erc20ToPermit2: reads.erc20ToPermit2[symbol],
        permit2: reads.permit2[use][symbol],
      })),
      {
        permit2: network.contracts.permit2,
        spender: this.spender(use),
        now: reads.blockTimestamp,
        gas: CALIBRATED_GAS,
      },
    );
    if (approvals.length === 0) return { approvals, warnings: [] };
    const short = needs
      .filter(({ symbol }) => approvals.some((a) => a.token === network.tokens[symbol].address))
      .map(({ symbol, amount }) => ({
        symbol,
        required: amount.toString(),
        allowance: this.allowance(reads, use, symbol).toString(),
      }));
    const warning: Warning = {
      code: 'ALLOWANCE_INSUFFICIENT',
      message: `Permit2 allowance too low for ${short.map((s) => s.symbol).join(' and ')}: broadcast the ${approvals.length} transaction(s) in approvals[] first`,
      hint: ERROR_CATALOGUE.ALLOWANCE_INSUFFICIENT.hint,
      tokens: short,
    };
    return { approvals, warnings: [warning] };
  }

  /** SESSION_EXPIRES_BEFORE_DEADLINE: the hook checks the session when the transaction executes. */
  sessionDeadlineWarnings(reads: WalletReads, deadline: number): Warning[] {
    if (reads.activeUntil <= reads.blockTimestamp || reads.activeUntil >= BigInt(deadline))
      return [];
    const activeUntil = isoOf(reads.activeUntil);
    const deadlineIso = isoOf(BigInt(deadline));
    return [
      {
        code: 'SESSION_EXPIRES_BEFORE_DEADLINE',
        message: `The compliance session ends at ${activeUntil}, before the transaction deadline ${deadlineIso}; after that the transaction reverts`,
        hint: ERROR_CATALOGUE.SESSION_EXPIRES_BEFORE_DEADLINE.hint,
        activeUntil,
        deadline: deadlineIso,
      },
    ];
  }

  allowance(reads: WalletReads, use: SpendUse, symbol: TokenSymbol): bigint {
    return effectiveAllowance(
      reads.erc20ToPermit2[symbol],
      reads.permit2[use][symbol],
      reads.blockTimestamp,
    );
  }

  spender(use: SpendUse): string {
    const c = this.chain.network().contracts;
    return use === 'swap' ? c.universalRouter : c.positionManager;
  }

  /** GET /defi/preflight/:address. */
  async preflight(address: string, principal: Principal | undefined): Promise<PreflightResponse> {
    const network = this.chain.network();
    const walletBound = await this.assertOwnership(address, principal);
    const reads = await this.read(address);
    const session = this.session(reads);
    const nextActions: NextAction[] = [];
    if (!walletBound) {
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
    for (const use of ['swap', 'liquidity'] as const) {
      // Without a requested amount, "enough" means the wallet can spend all it holds (at least 1 unit).
      const needs = TOKEN_SYMBOLS.map((symbol) => ({
        symbol,
        amount: reads.balances[symbol] > 0n ? reads.balances[symbol] : 1n,
      }));
      for (const step of this.planSpend(reads, use, needs).approvals) {
        // token -> Permit2 serves both uses: list it once.
        if (step.kind === 'erc20' && erc20Listed.has(step.token)) continue;
        if (step.kind === 'erc20') erc20Listed.add(step.token);
        const symbol = TOKEN_SYMBOLS.find((s) => network.tokens[s].address === step.token)!;
        nextActions.push({
          action: 'approve',
          use,
          token: step.token,
          symbol,
          spender: step.spender,
          transaction: step.transaction,
          description:
            step.kind === 'erc20'
              ? `Approve Permit2 to move your ${symbol}`
              : `Allow the ${use === 'swap' ? 'UniversalRouter' : 'PositionManager'} to spend ${symbol} through Permit2`,
        });
      }
    }
    const allowances = (use: SpendUse) => ({
      WETH: this.allowance(reads, use, 'WETH').toString(),
      tUSDC: this.allowance(reads, use, 'tUSDC').toString(),
    });
    return {
      address: getAddress(address),
      chainId: network.chainId,
      walletBound,
      session,
      balances: {
        ETH: reads.balances.ETH.toString(),
        WETH: reads.balances.WETH.toString(),
        tUSDC: reads.balances.tUSDC.toString(),
      },
      allowances: { swap: allowances('swap'), liquidity: allowances('liquidity') },
      nextActions,
    };
  }
}

export function isoOf(unixSeconds: bigint): string {
  // uint64 expiries can exceed Date's range (e.g. a "forever" 2^40 s session): clamp for display.
  const ms = unixSeconds * 1000n;
  return new Date(Number(ms > 8_640_000_000_000_000n ? 8_640_000_000_000_000n : ms)).toISOString();
}
