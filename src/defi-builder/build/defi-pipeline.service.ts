/**
 * Every DeFi operation runs the spec's phases in this order (§7), top to bottom:
 *   validation  the global ValidationPipe on the request DTO (before auth, design §4)
 *   auth        the API-key-or-JWT guard and the route's scope (@RequireScope)
 *   preflight   PreflightService.run: ownership, tokens, ONE batched read, session gate, spend plan
 *   build       the operation's pure calldata, then the shared tail: deadline, gas plan
 *               (simulation), warnings and the common response fields (design §6)
 * An operation (operations/*.operation.ts) only says what its preflight needs and how it encodes.
 */
import { Injectable } from '@nestjs/common';
import type { Principal } from '../../auth/principal';
import type { ChainReads } from '../chain/defi-chain.port';
import type { BuildResponseBase } from '../defi-builder.types';
import { Preflight, PreflightRequest, PreflightService } from '../preflight/preflight.service';
import { sessionDeadlineWarnings } from '../preflight/session-view';
import { GasEstimatorService, GasOperation } from './gas-estimator.service';

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
    private readonly preflight: PreflightService,
    private readonly gas: GasEstimatorService,
  ) {}

  async run<Req extends OperationRequest, K extends string, R extends ChainReads, D>(
    operation: DefiOperation<Req, K, R, D>,
    request: Req,
    context: OperationContext,
  ): Promise<BuildResponseBase & D> {
    // preflight
    const needs = operation.preflight(request);
    const pre = await this.preflight.run({
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
    return {
      chainId: pre.network.chainId,
      transaction: {
        to: built.to,
        data: built.data,
        value: value.toString(),
        gas: gas.gas.toString(),
      },
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
      poolKey: pre.network.pool,
      ...built.details,
      deadline,
    };
  }
}
