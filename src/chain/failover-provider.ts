/**
 * The ethers v6 provider of the attester's transactions (signing, nonces, receipts), sending every
 * JSON-RPC call through the same transport as the reads (rpc-failover.ts): one set of RPC URLs,
 * one failover, one error rate per URL. ethers keeps building the requests and reading the answers
 * (its own error mapping: CALL_EXCEPTION, NONCE_EXPIRED, ...); only the HTTP leg is ours.
 */
import {
  JsonRpcError as EthersJsonRpcError,
  JsonRpcPayload,
  JsonRpcProvider,
  JsonRpcResult,
} from 'ethers';
import { JsonRpcError, JsonRpcTransport } from './json-rpc-http';

export class FailoverJsonRpcProvider extends JsonRpcProvider {
  constructor(
    private readonly transport: JsonRpcTransport,
    chainId: number,
  ) {
    super(undefined, chainId, {
      // No eth_chainId probe before calls: a read costs exactly the requests we make, and a dead
      // RPC cannot trap the provider in ethers' endless network-detection retry loop.
      staticNetwork: true,
      // One JSON-RPC call per HTTP request, sent at once (no 10 ms batching stall).
      batchMaxCount: 1,
      // Preflight reads just before and after an approval must both reach the chain.
      cacheTimeout: -1,
      pollingInterval: 1_000,
    });
  }

  /** A node's JSON-RPC error goes back to ethers as an answer; a transport failure is thrown. */
  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const payloads = Array.isArray(payload) ? payload : [payload];
    const answers = await Promise.all(
      payloads.map(async ({ id, method, params }): Promise<JsonRpcResult | EthersJsonRpcError> => {
        try {
          const args = Array.isArray(params) ? (params as unknown[]) : params ? [params] : [];
          return { id, result: await this.transport.send<unknown>(method, args) };
        } catch (error) {
          if (!(error instanceof JsonRpcError)) throw error;
          return { id, error: { code: error.rpcCode, message: error.message, data: error.data } };
        }
      }),
    );
    // ethers' JsonRpcProvider declares results only but reads errors from the same array.
    return answers as JsonRpcResult[];
  }
}
