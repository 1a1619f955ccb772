/**
 * Every DeFi operation runs the spec's phases in this order (§7), top to bottom:
 *   validation  the global ValidationPipe on the request DTO (before auth, design §4); after auth,
 *               the payout addresses against the network (payout-recipients.ts)
 *   auth        the API-key-or-JWT guard and the route's scope (@RequireScope)
 *   preflight   PreflightService.run: ownership, tokens, ONE batched read, session gate, spend plan
 *   build       the operation's pure calldata, then the shared tail: deadline, gas plan
 *               (simulation: a revert is refused unless buildOnly, design §7), warnings and the
 *               common response fields (design §6), with calls[] for batch wallets (calls.ts)
 * An operation (operations/*.operation.ts) only says what its preflight needs and how it encodes.
 */
import { poolKeyOf } from '../encoding/pool-key';
import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ChainReads, DEFI_CHAIN, DefiChain } from '../chain/defi-chain.port';
import type { BuildResponseBase, SimulationView } from '../defi-builder.types';
import { Preflight, PreflightRequest, PreflightService } from '../preflight/preflight.service';
import { sessionDeadlineWarnings } from '../preflight/session-view';
import { callsOf } from './calls';
import { GasEstimatorService, GasOperation } from './gas-estimator.service';
import { assertPayoutRecipients, Payout } from './payout-recipients';

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
  /** Pure: calldata from the request and the preflight; throws ApiError BUILD_FAILED. */
  build(request: Req, preflight: Preflight<K, R>, deadline: number): BuiltCall<D>;
}

export interface OperationContext {
  buildOnly: boolean;
  principal: Principal | undefined;
}

@Injectable()
export class DefiPipelineService {
  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly preflight: PreflightService,
    private readonly gas: GasEstimatorService,
  ) {}

  /** A controller's build: `buildOnly` from its query (exits take none: always false). */
  build<Req extends OperationRequest, K extends string, R extends ChainReads, D>(
    operation: DefiOperation<Req, K, R, D>,
    request: Req,
    principal: Principal | undefined,
    query?: { buildOnly?: boolean },
  ): Promise<BuildResponseBase & D> {
    return this.run(operation, request, { buildOnly: query?.buildOnly === true, principal });
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
    // build
    const deadline = request.deadline ?? pre.state.blockTimestamp + DEFAULT_DEADLINE_SECONDS;
    const built = operation.build(request, pre, deadline);
    const value = built.value ?? 0n;
    const gas = await this.gas.plan(
      built.gas,
      { from: pre.user, to: built.to, data: built.data, value },
      {
        sessionActive: pre.session.active || needs.session === 'none',
        approvalsPending: pre.spend.approvals.length > 0,
        balanceShort: pre.spend.balanceShort === true,
      },
    );
    if (gas.simulation.ok === false && !context.buildOnly) throw simulationReverted(gas.simulation);
    const transaction = {
      to: built.to,
      data: built.data,
      value: value.toString(),
      gas: gas.gas.toString(),
    };
    return {
      chainId: pre.network.chainId,
      transaction,
      calls: callsOf(pre.spend.approvals, transaction),
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
    };
  }
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
