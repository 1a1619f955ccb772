import { Inject, Injectable, Logger } from '@nestjs/common';
import { TransactionReceipt, TransactionRequest, Wallet } from 'ethers';
import { COMPLIANCE_REGISTRY } from '../../chain/abi/compliance-registry';
import { isTransportFailure } from '../../chain/chain-errors';
import { complianceConfig, ComplianceConfig } from '../../config/compliance.config';
import { ComplianceKeys } from '../compliance-keys';
import { beforeSendFailure, broadcastFailed, chainUnavailable } from './chain-errors';
import { RegistryConnection } from './registry-connection';

/** The registry's ABI (one module: src/chain/abi/compliance-registry.ts), under its older name. */
export const COMPLIANCE_REGISTRY_ABI = COMPLIANCE_REGISTRY;

const NONCE_ERROR =
  /nonce (too low|too high|has already been used)|already known|replacement (fee too low|transaction underpriced)/i;
/** Nonce clashes only happen when another process sends with the same key; back off and resync. */
const MAX_SEND_ATTEMPTS = 8;
const RECEIPT_POLL_MS = [0, 50, 100, 200, 400, 800, 1_000];

export interface MinedActivation {
  txHash: string;
  blockNumber: number;
}

/**
 * The only holder of the attester key. Sends ComplianceRegistry.activate and waits until mined.
 *
 * Nonces: concurrent activations are simulated and priced in parallel, then go through ONE
 * in-process queue that assigns the next nonce and hands the signed transaction to the node;
 * only that step is serialised, mining is awaited in parallel. The local counter is resynced from
 * the node's pending count after any failed send (and a nonce clash is retried), so a restart or
 * another instance using the same key heals instead of wedging. Instances should still use one
 * attester key each (the registry allows several attesters) to avoid those clashes altogether.
 */
@Injectable()
export class AttesterService {
  private readonly logger = new Logger(AttesterService.name);
  private readonly signer: Wallet;
  private queue: Promise<unknown> = Promise.resolve();
  private nextNonce: number | null = null;

  constructor(
    private readonly connection: RegistryConnection,
    @Inject(complianceConfig.KEY) private readonly config: ComplianceConfig,
    keys: ComplianceKeys,
  ) {
    this.signer = new Wallet(keys.attesterPrivateKey, connection.provider);
  }

  get address(): string {
    return this.signer.address;
  }

  /** Latest block timestamp (unix s): sessions are measured on the chain's clock, as the registry does. */
  async chainTime(): Promise<number> {
    try {
      const block = await this.connection.provider.getBlock('latest');
      if (!block) throw new Error('no latest block');
      return block.timestamp;
    } catch (error) {
      throw chainUnavailable(error);
    }
  }

  async activate(wallet: string, until: number): Promise<MinedActivation> {
    return this.transact(COMPLIANCE_REGISTRY.encodeFunctionData('activate', [wallet, until]));
  }

  /** Ends the wallet's session now (ComplianceRegistry.revoke), mined before it returns. */
  async revoke(wallet: string): Promise<MinedActivation> {
    return this.transact(COMPLIANCE_REGISTRY.encodeFunctionData('revoke', [wallet]));
  }

  /** The wallet's session end (unix s) and the chain time, read at the same block. */
  async sessionOf(wallet: string): Promise<{ activeUntil: number; chainTime: number }> {
    try {
      const block = await this.connection.provider.getBlock('latest');
      if (!block) throw new Error('no latest block');
      const data = await this.connection.provider.call({
        to: this.connection.registryAddress,
        data: COMPLIANCE_REGISTRY.encodeFunctionData('activeUntil', [wallet]),
        blockTag: block.number,
      });
      const [until] = COMPLIANCE_REGISTRY.decodeFunctionResult('activeUntil', data);
      return { activeUntil: Number(until), chainTime: block.timestamp };
    } catch (error) {
      throw chainUnavailable(error);
    }
  }

  private async transact(data: string): Promise<MinedActivation> {
    const tx: TransactionRequest = {
      to: this.connection.registryAddress,
      data,
      from: this.signer.address,
      chainId: this.connection.chainId,
    };
    // Simulated outside the queue: a revert (key not an attester, expiry in the past) spends no nonce.
    let prepared: TransactionRequest;
    try {
      const [gasLimit, fees] = await Promise.all([
        this.connection.provider.estimateGas(tx),
        this.connection.provider.getFeeData(),
      ]);
      prepared = {
        ...tx,
        gasLimit: (gasLimit * 12n) / 10n,
        type: 2,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      };
    } catch (error) {
      throw beforeSendFailure(error);
    }
    const txHash = await this.serialised(() => this.send(prepared));
    const receipt = await this.waitForReceipt(txHash);
    if (receipt.status !== 1)
      throw broadcastFailed('The activation transaction reverted on chain', undefined, txHash);
    return { txHash, blockNumber: receipt.blockNumber };
  }

  /** Runs `task` after every previously queued one; a failure does not block the queue. */
  private serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async send(tx: TransactionRequest): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      let nonce: number;
      try {
        nonce = this.nextNonce ?? (await this.signer.getNonce('pending'));
      } catch (error) {
        throw chainUnavailable(error);
      }
      try {
        const response = await this.signer.sendTransaction({ ...tx, nonce });
        this.nextNonce = nonce + 1;
        return response.hash;
      } catch (error) {
        this.nextNonce = null;
        const message = (error as Error)?.message ?? '';
        if (NONCE_ERROR.test(message) && attempt < MAX_SEND_ATTEMPTS) {
          this.logger.warn(
            `attester nonce ${nonce} clashed; resyncing from the node (attempt ${attempt})`,
          );
          await sleep(Math.floor(Math.random() * 25 * attempt));
          continue;
        }
        // Unreachable node before it took the transaction: nothing was sent, 503. Otherwise 502.
        if (isTransportFailure(error)) throw chainUnavailable(error);
        throw broadcastFailed('The node refused the activation transaction', error);
      }
    }
  }

  private async waitForReceipt(txHash: string): Promise<TransactionReceipt> {
    const deadline = Date.now() + this.config.attesterReceiptTimeoutMs;
    for (let i = 0; ; i++) {
      await sleep(RECEIPT_POLL_MS[Math.min(i, RECEIPT_POLL_MS.length - 1)]);
      try {
        const receipt = await this.connection.provider.getTransactionReceipt(txHash);
        if (receipt) return receipt;
      } catch (error) {
        if (Date.now() > deadline)
          throw broadcastFailed(
            'The activation transaction was sent but its receipt could not be read',
            error,
            txHash,
          );
        continue;
      }
      if (Date.now() > deadline)
        throw broadcastFailed(
          'The activation transaction was not mined in time',
          undefined,
          txHash,
        );
    }
  }
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
