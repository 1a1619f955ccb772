/**
 * Every DeFi operation runs the spec's phases in this order (§7), top to bottom:
 *   validation  the global ValidationPipe on the request DTO (before auth, design §4); after auth,
 *               the payout addresses against the network (payout-recipients.ts)
 *   auth        the API-key-or-JWT guard and the route's scope (@RequireScope)
 *   preflight   PreflightService.run: ownership, tokens, ONE batched read, session gate, spend plan
 *   build       the operation's pure calldata, then the shared tail: deadline, gas plan
 *               (simulation: a revert is refused unless buildOnly, design §7), warnings and the
 *               common response fields (design §6), with calls[] for batch wallets (calls.ts),
 *               and the compliance receipt (issue 56): its simulation rides in the gas plan's
 *               batch, the receipts module signs and keeps it, the answer carries receiptId
 * An operation (operations/*.operation.ts) only says what its preflight needs and how it encodes.
 */
import { poolKeyOf } from '../encoding/pool-key';
import type { TradeRequest } from '../../trading/trade-facts';
import type { AuthorizationRequest } from '../../trading/onchain/trade-authorization.types';
import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ChainReads, DEFI_CHAIN, DefiChain } from '../chain/defi-chain.port';
import type { BuildResponseBase, SimulationView } from '../defi-builder.types';
import { Preflight, PreflightRequest, PreflightService } from '../preflight/preflight.service';
import { sessionDeadlineWarnings } from '../preflight/session-view';
import { callsOf } from './calls';
import { safeTransactionOf } from './safe-transaction';
import { CallsFormat, WalletSendCallsView, walletSendCallsOf } from './wallet-send-calls';
import { bareBody } from '../../auth/auth-method';
import { withResponseHeaders } from '../../common/http/response-headers';
import { RECEIPT_ID_HEADER } from '../build-headers';
import { checksumAddress } from '../../common/address/checksum-address';
import { safeContractsFor } from '../../chain/safe/safe-contracts';
import { GasEstimatorService, GasOperation, GasPlan } from './gas-estimator.service';
import { assertPayoutRecipients, Payout } from './payout-recipients';
import { ReceiptsService } from '../../receipts/receipts.service';
import type { ReceiptDraft, ReceiptOperation, RuleResult } from '../../receipts/receipt.types';
import { tradeFacts } from '../../trading/trade-facts';
import { TradeRulesService } from '../../trading/trade-rules.service';
import { TradeAuthorizer } from '../../trading/onchain/trade-authorizer.service';
import { TradeEnforcementSync } from '../../trading/trade-enforcement-sync';
import { ApprovalGate, ApprovalPass } from '../../approvals/approval-gate.service';
import {
  buildFacts,
  receiptSimulationOf,
  ReceiptSimulationPlan,
  simulationPlanOf,
  toleranceOf,
} from './receipt-draft';

export const DEFAULT_DEADLINE_SECONDS = 20 * 60;

export interface OperationRequest {
  userAddress: string;
  /** Unix seconds; default: the chain's time + DEFAULT_DEADLINE_SECONDS. */
  deadline?: number;
}

export interface BuiltCall<D> {
  to: string;
  data: string;
  value?: bigint;
  /** Which calibrated figure applies when the transaction cannot be simulated yet. */
  gas: GasOperation;
  /** The operation's own response fields. */
  details: D;
}

export interface DefiOperation<
  Req extends OperationRequest,
  K extends string,
  R extends ChainReads,
  D,
> {
  /** What the operation's compliance receipt names it. */
  name: ReceiptOperation;
  preflight(request: Req): Omit<PreflightRequest<K, R>, 'userAddress' | 'principal' | 'buildOnly'>;
  /**
   * Where the transaction pays out besides userAddress (who signs, and receives swap output,
   * position NFTs and the tokens of an exit): e.g. collect's recipient. Checked before preflight.
   */
  payouts?(request: Req): Payout[];
  /** Validation that needs the network (e.g. a named pool: 400 POOL_DEPRECATED); throws ApiError. */
  validate?(request: Req, network: NetworkDefinition): void;
  /**
   * The pool the request builds into, as the network seen at that pool (its `pool`): preflight,
   * reads and build then target it. Absent: the network's default pool. Throws ApiError
   * (POOL_AMBIGUOUS, POOL_DEPRECATED) in the validation phase.
   */
  pool?(request: Req, network: NetworkDefinition): NetworkDefinition;
  /**
   * What the trade gives (the trade rules judge it, issue 54) and what hook v3's authorization
   * binds; absent for exits, which give nothing and never need an authorization. Pure; throws
   * ApiError BUILD_FAILED as build does.
   */
  trade?(request: Req, preflight: Preflight<K, R>): OperationTrade;
  /**
   * Pure: calldata from the request and the preflight; throws ApiError BUILD_FAILED. `hookData`:
   * per lower-case PoolId, what the pools' hook receives (hook v3's authorization), else '0x'.
   */
  build(
    request: Req,
    preflight: Preflight<K, R>,
    deadline: number,
    hookData?: HookDataByPool,
  ): BuiltCall<D>;
}

/** hookData per lower-case PoolId (an authorization's hookDataByPool). */
export type HookDataByPool = Readonly<Record<string, string>>;

/** A trade's facts for the rules, and what its authorization binds (trader and deadline aside). */
export interface OperationTrade {
  request: TradeRequest;
  authorization: Omit<AuthorizationRequest, 'trader' | 'deadline'>;
}

export interface OperationContext {
  buildOnly: boolean;
  principal: Principal | undefined;
  /** Set by the four-eyes phase when an approved request released this build (issue 55). */
  approval?: ApprovalPass | null;
}

@Injectable()
export class DefiPipelineService {
  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly preflight: PreflightService,
    private readonly gas: GasEstimatorService,
    private readonly receipts: ReceiptsService,
    private readonly trading: TradeRulesService,
    private readonly authorizer: TradeAuthorizer,
    private readonly enforcement: TradeEnforcementSync,
    private readonly approvals: ApprovalGate,
  ) {}

  /**
   * A controller's build: `buildOnly` from its query (exits take none: always false), answered
   * in the query's callsFormat (default: the whole build response), with the id of its receipt
   * in the X-Receipt-Id header.
   */
  async build<Req extends OperationRequest, K extends string, R extends ChainReads, D>(
    operation: DefiOperation<Req, K, R, D>,
    request: Req,
    principal: Principal | undefined,
    query?: { buildOnly?: boolean; callsFormat?: CallsFormat },
  ): Promise<(BuildResponseBase & D) | WalletSendCallsView> {
    const context: OperationContext = { buildOnly: query?.buildOnly === true, principal };
    const built = await this.run(operation, request, context).catch(async (error: unknown) => {
      // An approval the gate let through was not used by a build that failed: it stays approved.
      await context.approval?.release();
      throw error;
    });
    // eip5792: wallet_sendCalls' own object, exactly: no authMethod either.
    const answer =
      query?.callsFormat === 'eip5792'
        ? bareBody(
            walletSendCallsOf(built.chainId, checksumAddress(request.userAddress), built.calls),
          )
        : built;
    // Every answer names its receipt, the EIP-5792 one too (it has no member for it).
    return built.receiptId
      ? withResponseHeaders(answer, { [RECEIPT_ID_HEADER]: built.receiptId })
      : answer;
  }

  async run<Req extends OperationRequest, K extends string, R extends ChainReads, D>(
    operation: DefiOperation<Req, K, R, D>,
    request: Req,
    context: OperationContext,
  ): Promise<BuildResponseBase & D> {
    // validation that needs the network: nothing is built to pay out where tokens are lost
    const network = operation.pool?.(request, this.chain.network()) ?? this.chain.network();
    assertPayoutRecipients(network, [
      { field: 'userAddress', address: request.userAddress },
      ...(operation.payouts?.(request) ?? []),
    ]);
    operation.validate?.(request, network);
    // preflight
    const needs = operation.preflight(request);
    const pre = await this.preflight.run({
      network,
      userAddress: request.userAddress,
      principal: context.principal,
      buildOnly: context.buildOnly,
      ...needs,
    });
    // preflight: the account's trade rules (issue 54), before anything is built
    const trade = context.principal && operation.trade?.(request, pre);
    // What the wallet gives, worked out once for the rules and the approvals.
    const facts = trade ? tradeFacts(trade.request) : null;
    const check = facts
      ? await this.trading.check(context.principal!.accountId, pre.user, facts)
      : null;
    // preflight: four eyes (issue 55), after the rules, before the authorization and reservation
    context.approval = trade
      ? await this.approvals.check({
          principal: context.principal!,
          operation: operation.name,
          chainId: pre.network.chainId,
          wallet: pre.user,
          request: request as unknown as Record<string, unknown>,
          rules: check?.trading.approvals ?? null,
          gives: facts!.gives,
        })
      : null;
    // build
    const authorize = trade && check?.trading.enforcement === 'onchain' && this.authorizer.enabled;
    const requested = request.deadline ?? pre.state.blockTimestamp + DEFAULT_DEADLINE_SECONDS;
    // An authorized build lives no longer than an authorization may (the transaction's deadline
    // and the authorization's are one).
    const deadline = authorize
      ? Math.min(requested, this.authorizer.latestDeadline(pre.state.blockTimestamp))
      : requested;
    // Hook v3 holds the wallet to its authorizations from its first authorized build on.
    if (authorize) await this.enforcement.ensure(pre.user);
    const authorization = authorize
      ? await this.authorizer.issue(
          Object.assign({ trader: pre.user, deadline }, trade.authorization),
        )
      : null;
    const built = operation.build(request, pre, deadline, authorization?.hookDataByPool);
    const value = built.value ?? 0n;
    const unsigned = { to: built.to, data: built.data, value: value.toString() };
    const calls = callsOf(pre.spend.approvals, unsigned);
    // Receipts are the account's: a build without a caller (none reaches here over HTTP) has none.
    const plan = context.principal ? simulationPlanOf(pre, calls) : null;
    const gas = await this.gas.plan(
      built.gas,
      { from: pre.user, to: built.to, data: built.data, value },
      {
        sessionActive: pre.session.active || needs.session === 'none',
        approvalsPending: pre.spend.approvals.length > 0,
        balanceShort: pre.spend.balanceShort === true,
      },
      plan,
    );
    if (gas.simulation.ok === false && !context.buildOnly) throw simulationReverted(gas.simulation);
    const transaction = Object.assign(unsigned, { gas: gas.gas.toString() });
    // What the build authorizes counts toward the daily limits from now (exact under the lock).
    const buildId = check
      ? await this.trading.reserve(check, {
          deadline: authorization?.deadline ?? deadline,
          nonce: authorization?.nonce ?? null,
          authorizationId: authorization?.id ?? null,
        })
      : null;
    const authorizationView = authorization && {
      id: authorization.id,
      signer: authorization.signer,
      deadline: authorization.deadline,
    };
    const safeContracts = pre.safe && safeContractsFor(pre.network.chainId);
    const receiptId =
      plan && gas.walletSimulation
        ? await this.receipts.issue(
            receiptDraft(operation.name, request, context, pre, {
              plan,
              calls,
              transaction,
              deadline,
              details: built.details as Record<string, unknown>,
              simulation: gas.walletSimulation,
              needsSession: needs.session === 'required',
              trade: check && {
                rules: this.trading.results(check),
                authorization: authorization && {
                  id: authorization.id,
                  signer: authorization.signer,
                  deadline: authorization.deadline,
                  nonce: authorization.nonce,
                },
                approval: context.approval?.receipt ?? null,
              },
            }),
          )
        : undefined;
    if (buildId && receiptId) await this.trading.linkReceipt(buildId, receiptId);
    return {
      chainId: pre.network.chainId,
      receiptId,
      transaction,
      calls,
      // A Safe's calls as the one transaction its owners sign (design §10).
      ...(pre.safe &&
        safeContracts && {
          safeTransaction: safeTransactionOf(pre.network.chainId, safeContracts, pre.safe, calls),
        }),
      gasSource: gas.gasSource,
      walletBound: pre.walletBound,
      session: pre.session,
      warnings: [
        ...pre.spend.warnings,
        ...sessionDeadlineWarnings(pre.state, deadline),
        ...gas.warnings,
      ],
      approvals: pre.spend.approvals,
      ...(pre.spend.permitData && { permitData: pre.spend.permitData }),
      simulation: gas.simulation,
      poolKey: poolKeyOf(pre.network.pool),
      ...built.details,
      deadline,
      ...(authorizationView && { authorization: authorizationView }),
    };
  }
}

/** The receipt of a build: the request as built, its calls, the simulation and today's facts. */
function receiptDraft(
  operation: ReceiptOperation,
  request: OperationRequest,
  context: OperationContext,
  pre: Preflight,
  built: {
    plan: ReceiptSimulationPlan;
    calls: ReceiptDraft['approvals'];
    transaction: ReceiptDraft['transaction'];
    deadline: number;
    details: Record<string, unknown>;
    simulation: NonNullable<GasPlan['walletSimulation']>;
    needsSession: boolean;
    /** The trade rules' results and the authorization issued (issue 54), when the account has rules. */
    trade: {
      rules: RuleResult[];
      authorization: Record<string, unknown> | null;
      /** The approval request that released the build (issue 55). */
      approval: Record<string, unknown> | null;
    } | null;
  },
): ReceiptDraft {
  const facts = buildFacts(pre, built.needsSession);
  const { route, poolKey, ...terms } = built.details;
  return {
    accountId: context.principal!.accountId,
    chainId: pre.network.chainId,
    wallet: pre.user,
    walletBound: pre.walletBound,
    operation,
    request: Object.assign(JSON.parse(JSON.stringify(request)) as object, {
      deadline: built.deadline,
    }),
    route: Object.assign({}, route, { poolKey: poolKey ?? poolKeyOf(pre.network.pool) }),
    terms,
    approvals: built.calls.slice(0, -1),
    transaction: built.transaction,
    session: { active: pre.session.active, activeUntil: pre.state.session.activeUntil },
    facts: built.trade
      ? Object.assign({}, facts, {
          policy: {
            version: facts.policy.version,
            rules: [...facts.policy.rules, ...built.trade.rules],
          },
          authorization: built.trade.authorization,
          approval: built.trade.approval,
        })
      : facts,
    simulation: receiptSimulationOf(built.plan, built.simulation),
    tolerance: toleranceOf(built.details, {
      in: built.details.tokenIn as string | undefined,
      out: built.details.tokenOut as string | undefined,
    }),
    deadline: built.deadline,
  };
}

/**
 * Design §7: nothing returned by default is a transaction the service already knows will revert.
 * With buildOnly=true the same revert is a SIMULATION_REVERTED warning on a 200.
 */
function simulationReverted(simulation: SimulationView): ApiError {
  return new ApiError(
    'SIMULATION_REVERTED',
    `The transaction reverts when simulated at the latest block (${simulation.revertReason}); it was not returned`,
    { extra: { revertCode: simulation.revertCode, revertReason: simulation.revertReason } },
  );
}
