/**
 * The whole swap flow an integrator writes with the packaged client, under `tsc --strict` and
 * without a cast: quote -> build -> sign the Permit2 permit -> build with it -> relay the
 * approvals left and the swap -> poll the status until it is final.
 *
 * test/client/client-package.e2e-spec.ts installs the `npm pack` tarball in a fresh project,
 * compiles this file there and runs it against the service on the devnet.
 */
import {
  createDefiClient,
  wholeBuild,
  type components,
  type DefiClient,
  type ErrorEnvelope,
} from '@compliance-defi/client';

type Schemas = components['schemas'];
export type SwapBody = Schemas['SwapRequestDto'];
export type SwapBuild = Schemas['SwapResponseDto'];
export type PermitData = NonNullable<SwapBuild['permitData']>;
export type UnsignedTx = Schemas['UnsignedTxDto'];
export type TransactionStatus = Schemas['TransactionStatusResponseDto'];

/** The integrator's wallet (an ethers Wallet, a viem account, a KMS signer) behind two calls. */
export interface SwapWallet {
  address: string;
  /** eth_signTypedData_v4 (ethers: wallet.signTypedData(domain, types, values)). */
  signTypedData(
    domain: PermitData['domain'],
    types: PermitData['types'],
    values: PermitData['values'],
  ): Promise<string>;
  /** Signs with the wallet's next nonce and current fees; returns the RLP hex. */
  signTransaction(tx: {
    to: string;
    data: string;
    value: bigint;
    gasLimit: bigint;
    chainId: number;
  }): Promise<string>;
}

/** A refusal of the service: branch on `code`, show `hint`. */
export class DefiError extends Error {
  constructor(readonly envelope: ErrorEnvelope) {
    super(`${envelope.code} (${envelope.phase}): ${envelope.message}. ${envelope.hint}`);
  }
}

export interface SwapFlowInput {
  baseUrl: string;
  apiKey: string;
  wallet: SwapWallet;
  tokenIn: string;
  tokenOut: string;
  /** Exact input, smallest units of tokenIn. */
  amount: string;
  /** Time between two status polls (default 1000 ms). */
  pollMs?: number;
}

export interface SwapFlowResult {
  quotedAmountOut: string;
  /** The build that was signed: its permit replaced the Permit2 approval. */
  build: SwapBuild;
  usedPermit: boolean;
  /** The swap's final status (CONFIRMED: `swap` holds what was paid and received). */
  status: TransactionStatus;
}

export async function swapWithPermit(input: SwapFlowInput): Promise<SwapFlowResult> {
  const { wallet } = input;
  const api = createDefiClient({ baseUrl: input.baseUrl, apiKey: input.apiKey });

  const quote = await api.POST('/api/v1/defi/quote', {
    body: {
      tokenIn: input.tokenIn,
      tokenOut: input.tokenOut,
      amount: input.amount,
      tradeType: 'EXACT_INPUT',
    },
  });
  if (quote.error) throw new DefiError(quote.error);

  const body: SwapBody = {
    tokenIn: input.tokenIn,
    tokenOut: input.tokenOut,
    amount: input.amount,
    userAddress: wallet.address,
  };
  let build = await buildSwap(api, body);
  const permitData = build.permitData;
  if (permitData) {
    // Sign the permit instead of sending the Permit2 approval, and send its values back as is.
    const permitSignature = await wallet.signTypedData(
      permitData.domain,
      permitData.types,
      permitData.values,
    );
    build = await buildSwap(api, { ...body, permit: permitData.values, permitSignature });
  }

  // What is left: the ERC-20 -> Permit2 approval (when short), then the swap itself.
  for (const approval of build.approvals) {
    const approved = await relayUntilFinal(api, wallet, approval.transaction, build.chainId, input);
    if (approved.status !== 'CONFIRMED') throw new Error(`approval ${approved.status}`);
  }
  const status = await relayUntilFinal(api, wallet, build.transaction, build.chainId, input);
  return {
    quotedAmountOut: quote.data.amountOut,
    build,
    usedPermit: permitData !== undefined,
    status,
  };
}

async function buildSwap(api: DefiClient, body: SwapBody): Promise<SwapBuild> {
  const built = await api.POST('/api/v1/defi/swap', { body });
  if (built.error) throw new DefiError(built.error);
  return wholeBuild(built.data);
}

/** Signs, relays (POST /api/v1/defi/transactions) and polls the status until CONFIRMED or REVERTED. */
export async function relayUntilFinal(
  api: DefiClient,
  wallet: SwapWallet,
  tx: UnsignedTx,
  chainId: number,
  options: { pollMs?: number } = {},
): Promise<TransactionStatus> {
  const signedTransaction = await wallet.signTransaction({
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    gasLimit: BigInt(tx.gas),
    chainId,
  });
  const relayed = await api.POST('/api/v1/defi/transactions', { body: { signedTransaction } });
  if (relayed.error) throw new DefiError(relayed.error);
  const txHash: string = relayed.data.txHash;
  for (;;) {
    const status = await api.GET('/api/v1/defi/transactions/{txHash}', {
      params: { path: { txHash } },
    });
    if (status.error) throw new DefiError(status.error);
    if (status.data.status === 'CONFIRMED' || status.data.status === 'REVERTED') return status.data;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
  }
}
