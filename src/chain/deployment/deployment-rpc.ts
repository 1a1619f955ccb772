/**
 * The JSON-RPC a deployment needs, over any EIP-1193 endpoint: the embedded devnet's in-process
 * engine, or an HTTP node (the CLI adapts its transport). Transactions are real signed EIP-1559
 * transactions (eth_sendRawTransaction), since a public network has no unlocked account: the node
 * estimates the gas and quotes the fees, ethers signs, the receipt is polled for.
 */
import type { BaseWallet } from 'ethers';

export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** An EIP-1193 view of a `send(method, params)` transport (src/chain/json-rpc-http.ts). */
export function eip1193Of(transport: {
  send<T>(method: string, params: unknown[]): Promise<T>;
}): Eip1193 {
  return { request: ({ method, params }) => transport.send(method, params ?? []) };
}

export async function rpcCall<T>(rpc: Eip1193, method: string, params: unknown[]): Promise<T> {
  return (await rpc.request({ method, params })) as T;
}

export async function ethCall(rpc: Eip1193, to: string, data: string): Promise<string> {
  return rpcCall<string>(rpc, 'eth_call', [{ to, data }, 'latest']);
}

export async function hasCode(rpc: Eip1193, address: string): Promise<boolean> {
  return (await rpcCall<string>(rpc, 'eth_getCode', [address, 'latest'])) !== '0x';
}

export async function chainIdOf(rpc: Eip1193): Promise<number> {
  return Number(await rpcCall<string>(rpc, 'eth_chainId', []));
}

export async function balanceOf(rpc: Eip1193, address: string): Promise<bigint> {
  return BigInt(await rpcCall<string>(rpc, 'eth_getBalance', [address, 'latest']));
}

export async function nonceOf(rpc: Eip1193, address: string, tag = 'pending'): Promise<number> {
  return Number(await rpcCall<string>(rpc, 'eth_getTransactionCount', [address, tag]));
}

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * EIP-1559 fees from the node: twice the latest base fee (room for six full blocks of increases)
 * plus the node's suggested tip. A node without eth_maxPriorityFeePerGas tips what eth_gasPrice
 * adds above the base fee.
 */
export async function currentFees(rpc: Eip1193): Promise<Fees> {
  const block = await rpcCall<{ baseFeePerGas?: string } | null>(rpc, 'eth_getBlockByNumber', [
    'latest',
    false,
  ]);
  const baseFee = BigInt(block?.baseFeePerGas ?? 0);
  let tip: bigint;
  try {
    tip = BigInt(await rpcCall<string>(rpc, 'eth_maxPriorityFeePerGas', []));
  } catch {
    const gasPrice = BigInt(await rpcCall<string>(rpc, 'eth_gasPrice', []));
    tip = gasPrice > baseFee ? gasPrice - baseFee : 0n;
  }
  return { maxFeePerGas: baseFee * 2n + tip, maxPriorityFeePerGas: tip };
}

export interface TransactionRequest {
  to: string;
  data: string;
  value: bigint;
}

export interface MinedTransaction {
  hash: string;
  blockNumber: number;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
}

export interface SendOptions {
  /** Between two eth_getTransactionReceipt polls (the first poll is immediate). */
  pollIntervalMs: number;
  /** Give up waiting for the receipt after this long (the transaction may still be mined). */
  receiptTimeoutMs: number;
}

interface RawReceipt {
  status: string;
  blockNumber: string;
  gasUsed: string;
  effectiveGasPrice?: string;
}

/** The node's estimate plus 20 %: state can move between the estimate and the inclusion. */
const GAS_MARGIN_PERCENT = 120n;

/**
 * Signs and sends transactions for one wallet, keeping its nonce locally (a load-balanced public
 * RPC may answer a stale pending count right after a receipt).
 */
export class TransactionSender {
  private nonce: number | null = null;

  constructor(
    private readonly rpc: Eip1193,
    private readonly wallet: BaseWallet,
    private readonly chainId: number,
    private readonly options: SendOptions,
  ) {}

  get address(): string {
    return this.wallet.address;
  }

  async send(request: TransactionRequest): Promise<MinedTransaction> {
    const from = this.wallet.address;
    const call = {
      from,
      to: request.to,
      data: request.data,
      value: `0x${request.value.toString(16)}`,
    };
    const [estimate, fees, nonce] = await Promise.all([
      rpcCall<string>(this.rpc, 'eth_estimateGas', [call]),
      currentFees(this.rpc),
      this.nonce ?? nonceOf(this.rpc, from),
    ]);
    const signed = await this.wallet.signTransaction({
      type: 2,
      chainId: this.chainId,
      nonce,
      to: request.to,
      data: request.data,
      value: request.value,
      gasLimit: (BigInt(estimate) * GAS_MARGIN_PERCENT) / 100n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const hash = await rpcCall<string>(this.rpc, 'eth_sendRawTransaction', [signed]);
    this.nonce = nonce + 1;
    const receipt = await this.waitForReceipt(hash);
    if (receipt.status !== '0x1') throw new Error(`transaction ${hash} reverted`);
    return {
      hash,
      blockNumber: Number(receipt.blockNumber),
      gasUsed: BigInt(receipt.gasUsed),
      effectiveGasPrice: BigInt(receipt.effectiveGasPrice ?? fees.maxFeePerGas),
    };
  }

  private async waitForReceipt(hash: string): Promise<RawReceipt> {
    const deadline = Date.now() + this.options.receiptTimeoutMs;
    for (;;) {
      const receipt = await rpcCall<RawReceipt | null>(this.rpc, 'eth_getTransactionReceipt', [
        hash,
      ]);
      if (receipt) return receipt;
      if (Date.now() >= deadline)
        throw new Error(
          `transaction ${hash} not mined after ${this.options.receiptTimeoutMs} ms; re-run the deployment once it is (it resumes)`,
        );
      await new Promise((resolve) => setTimeout(resolve, this.options.pollIntervalMs));
    }
  }
}
