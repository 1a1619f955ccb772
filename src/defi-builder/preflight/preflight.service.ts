/**
 * THE preflight phase (spec §7 order: validation, auth, preflight, build), shared by every
 * operation and by GET preflight, in one method: wallet ownership (403), the token whitelist
 * (400), ONE Multicall3 eth_call (wallet state + the operation's reads), the session gate (412
 * unless buildOnly; operations that need no session skip it), sanctions screening (403
 * WALLET_SANCTIONED, from the same batch), the balance rule (400 unless
 * buildOnly) and the Permit2 spend plan.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../auth/principal';
import type { WalletState } from '../../chain/encoding/wallet-reads';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { WalletsService } from '../../compliance/wallets/wallets.service';
import { ChainReads, DEFI_CHAIN, DecodedReads, DefiChain } from '../chain/defi-chain.port';
import type { SessionView } from '../defi-builder.types';
import { ResolvedToken, resolveTokens } from '../token-registry';
import { checkBalances, needsEth } from './balance-check';
import { sessionNotActive, sessionView } from './session-view';
import { walletSanctionedError } from '../../compliance/screening/sanctions-screen.service';
import { NOTHING_TO_SPEND, planSpend, SpendPlan, SpendRequest } from './spend-plan';
import { checksumAddress } from '../../common/address/checksum-address';
import { safeContractsFor } from '../../chain/safe/safe-contracts';
import {
  SAFE_NONCE_READ,
  SAFE_SINGLETON_READ,
  SafeAccount,
  safeAccountOf,
  safeAccountReads,
} from '../encoding/safe-account-reads';

export interface PreflightRequest<K extends string, R extends ChainReads> {
  userAddress: string;
  principal: Principal | undefined;
  buildOnly: boolean;
  /** 'required': spec §4 rules 1-2 (swap, mint). 'none': the operation never needs one (an exit, GET preflight). */
  session: 'required' | 'none';
  /**
   * An exit (decrease, collect, burn): a sanctioned wallet is refused only when the network's
   * hook freezes exits (compliance.exitPolicy "freeze"); everything else refuses it always.
   */
  exit?: boolean;
  /**
   * GET preflight: a wallet the sanctions oracle lists is reported (the caller's answer says so),
   * not refused; every operation refuses it (403 WALLET_SANCTIONED).
   */
  reportSanctioned?: boolean;
  /** The request's token fields (field name -> address), checked against the whitelist. */
  tokens: Record<K, string>;
  /** Native ETH (the zero address) accepted as a token field (swap). */
  nativeEth?: boolean;
  /** The operation's own reads, riding in the same eth_call as the wallet state. */
  reads?: (tokens: Record<K, ResolvedToken>, network: NetworkDefinition) => R;
  /** The network seen at the pool the request targets (default: the network, at its default pool). */
  network?: NetworkDefinition;
  /** Symbols of tokens the wallet read must cover beyond `tokens` (absent: all when `tokens` is empty). */
  walletTokens?: (network: NetworkDefinition) => readonly string[];
  /**
   * Checks on the operation's reads, before the session gate (e.g. the position exists and the
   * wallet owns it: 404/403); throws ApiError.
   */
  verify?: (reads: DecodedReads<R>, user: string, network: NetworkDefinition) => void;
  /** What the transaction will spend (through Permit2, or as ETH value), and for which spender. */
  spend?: (
    tokens: Record<K, ResolvedToken>,
    reads: DecodedReads<R>,
    network: NetworkDefinition,
  ) => SpendRequest;
}

export interface Preflight<K extends string = string, R extends ChainReads = ChainReads> {
  network: NetworkDefinition;
  /** userAddress, checksummed. */
  user: string;
  walletBound: boolean;
  tokens: Record<K, ResolvedToken>;
  state: WalletState;
  reads: DecodedReads<R>;
  session: SessionView;
  spend: SpendPlan & { balanceShort?: boolean };
  /** userAddress is a Safe (read in the same batch): its calls are also one Safe transaction. */
  safe: SafeAccount | null;
}

/**
 * The tokens whose balances and allowances the batch reads: those the request names (ETH reads as
 * WETH), or those `walletTokens` names (a position's pool; GET preflight's ?tokens=, maybe none),
 * else every token of the network.
 */
function walletTokens(
  network: NetworkDefinition,
  tokens: Record<string, ResolvedToken>,
  named: readonly string[] | undefined,
): string[] {
  const symbols = new Set([...Object.values(tokens).map((t) => t.symbol), ...(named ?? [])]);
  return symbols.size > 0 || named !== undefined ? [...symbols] : Object.keys(network.tokens);
}

@Injectable()
export class PreflightService {
  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly wallets: WalletsService,
  ) {}

  async run<K extends string, R extends ChainReads>(
    request: PreflightRequest<K, R>,
  ): Promise<Preflight<K, R>> {
    const network = request.network ?? this.chain.network();
    const user = checksumAddress(request.userAddress);
    const walletBound = await this.wallets.assertNotBoundElsewhere(
      user,
      request.principal?.accountId,
    );
    const tokens = resolveTokens(network, request.tokens, { native: request.nativeEth === true });
    // Whether the wallet is a Safe rides in the same eth_call (two reads an EOA answers empty).
    const safeContracts = safeContractsFor(network.chainId);
    const operationReads = request.reads ? request.reads(tokens, network) : ({} as R);
    const { state, reads } = await this.chain.readWallet(
      user,
      safeContracts
        ? (Object.assign({}, operationReads, safeAccountReads(user)) as R)
        : operationReads,
      walletTokens(network, tokens, request.walletTokens?.(network)),
    );
    const found = reads as Record<string, unknown>;
    const safe = safeContracts
      ? safeAccountOf(
          safeContracts,
          user,
          found[SAFE_SINGLETON_READ] as bigint | null,
          found[SAFE_NONCE_READ] as bigint | null,
        )
      : null;
    request.verify?.(reads, user, network);
    const exitAllowed = request.exit && network.compliance.exitPolicy === 'allow';
    if (state.sanctioned && !exitAllowed && !request.reportSanctioned)
      throw walletSanctionedError(user, 'the compliance hook refuses its trades');
    const session = sessionView(state);
    if (request.session === 'required' && !session.active && !request.buildOnly)
      throw sessionNotActive(user, session);
    const requested = request.spend?.(tokens, reads, network);
    if (!requested)
      return {
        network,
        user,
        walletBound,
        tokens,
        state,
        reads,
        session,
        spend: NOTHING_TO_SPEND,
        safe,
      };
    // Permit2 signatures are an EOA's: a Safe approves on chain, inside its one transaction.
    const spendRequest = safe
      ? Object.assign({}, requested, { offerPermit: undefined })
      : requested;
    // Paying ETH: its gas counts too. eth_call runs at base fee 0, so the price is asked apart.
    const gasPrice = needsEth(spendRequest) ? await this.chain.gasPrice() : 0n;
    const balanceWarnings = checkBalances(network, state, spendRequest, {
      buildOnly: request.buildOnly,
      gasPrice,
    });
    const planned = planSpend(network, state, spendRequest);
    const spend = {
      approvals: planned.approvals,
      warnings: [...balanceWarnings, ...planned.warnings],
      ...(planned.permitData && { permitData: planned.permitData }),
      balanceShort: balanceWarnings.length > 0,
    };
    return { network, user, walletBound, tokens, state, reads, session, spend, safe };
  }
}
