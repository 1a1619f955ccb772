/**
 * DefiChain over an ethers v6 JsonRpcProvider.
 *
 * INTERIM: the chain layer (src/chain, issue 4) is still landing its provider/NetworkService/
 * batched reader. Until it does, this adapter reads CHAIN_RPC_URL itself and resolves the devnet
 * network file. Swapping it for the chain layer's services changes only this file.
 */
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { FetchRequest, Interface, JsonRpcProvider } from 'ethers';
import { revertDataOf as chainRevertDataOf } from '../../chain/encoding/revert-decoder';
import { resolveNetworkFile, NetworkFile } from '../../chain/network/network-definition';
import type { NetworkDefinition } from '../../chain/network/network.types';
import { ApiError } from '../../common/errors/api-error';
import devnetNetworkFile from '../../config/networks/devnet.json';
import type { Call3, Call3Result } from '../encoding/preflight-batch';
import { DefiChain, GasEstimate, TxRequest } from './defi-chain.port';

const AGGREGATE3 = new Interface([
  'function aggregate3(tuple(address target, bool allowFailure, bytes callData)[] calls) payable returns (tuple(bool success, bytes returnData)[] returnData)',
]);
const RPC_TIMEOUT_MS = 5_000;

@Injectable()
export class EthersDefiChain implements DefiChain, OnModuleDestroy {
  private readonly definition: NetworkDefinition = resolveNetworkFile(devnetNetworkFile as NetworkFile);
  private readonly provider: JsonRpcProvider;

  constructor() {
    const request = new FetchRequest(process.env.CHAIN_RPC_URL ?? 'http://127.0.0.1:8545');
    request.timeout = RPC_TIMEOUT_MS;
    // staticNetwork: no eth_chainId probe per request, so a build costs exactly the calls we make;
    // no response cache: two identical preflight reads 100 ms apart (before/after an approval) must both hit the chain.
    this.provider = new JsonRpcProvider(request, this.definition.chainId, { staticNetwork: true, batchMaxCount: 1, cacheTimeout: -1 });
  }

  network(): NetworkDefinition {
    return this.definition;
  }

  async aggregate3(calls: Call3[]): Promise<Call3Result[]> {
    const data = AGGREGATE3.encodeFunctionData('aggregate3', [calls.map((c) => [c.target, c.allowFailure, c.callData])]);
    let raw: string;
    try {
      raw = await this.provider.call({ to: this.definition.contracts.multicall3, data });
    } catch (err) {
      throw unavailable(err);
    }
    const [results] = AGGREGATE3.decodeFunctionResult('aggregate3', raw) as unknown as [Array<[boolean, string]>];
    return results.map(([success, returnData]) => ({ success, returnData }));
  }

  async estimateGas(tx: TxRequest): Promise<GasEstimate> {
    try {
      return { ok: true, gas: await this.provider.estimateGas(tx) };
    } catch (err) {
      const revertData = revertOf(err);
      if (revertData !== undefined) return { ok: false, revertData };
      throw unavailable(err);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.provider.destroy();
  }
}

function unavailable(cause: unknown): ApiError {
  return new ApiError('CHAIN_UNAVAILABLE', 'The chain RPC did not answer the preflight read', { cause });
}

/**
 * Revert data of a failed estimate (the chain layer's extractor), or null for a revert that
 * carried no data (e.g. a bare `require` in WETH); undefined when it was no revert at all
 * (timeout, connection refused...), which the caller maps to CHAIN_UNAVAILABLE.
 */
function revertOf(err: unknown): string | null | undefined {
  const data = chainRevertDataOf(err);
  if (data !== undefined) return data;
  const e = err as { code?: string; shortMessage?: string; message?: string };
  return e?.code === 'CALL_EXCEPTION' || /revert/i.test(`${e?.shortMessage ?? ''} ${e?.message ?? ''}`) ? null : undefined;
}
