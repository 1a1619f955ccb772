import { Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { getAddress, TransactionRequest, Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { COMPLIANCE_REGISTRY } from '../../chain/abi/compliance-registry';
import { ComplianceConfig } from '../../config/compliance.config';
import { ActivityLog } from '../../events/activity-log';
import type { ActivityActor } from '../../events/activity-event';
import { ComplianceKeys } from '../compliance-keys';
import { recordForWalletOwner } from '../wallet-owner-activity';
import { BalanceWatch } from './balance-watch';
import { beforeSendFailure, broadcastFailed, chainUnavailable } from './chain-errors';
import { RegistryConnection } from './registry-connection';
import { PendingNonce, SenderStats, TransactionSender } from './transaction-sender';

/** The registry's ABI (one module: src/chain/abi/compliance-registry.ts), under its older name. */
export const COMPLIANCE_REGISTRY_ABI = COMPLIANCE_REGISTRY;

/** Why a session was revoked (the `reason` of session.revoked, design §9). */
export type SessionRevocationReason =
  'sanctioned' | 'credential_revoked' | 'issuer_revoked' | 'attestation_revoked' | 'operator';

export interface MinedActivation {
  txHash: string;
  blockNumber: number;
  /** The session end the mined activation set (a joined request may have asked a later one). */
  until?: number;
}

export interface AttesterStatus {
  address: string;
  balanceWei: bigint;
  lowBalance: boolean;
  /** Nonces this instance sent and has not seen mined, with every hash sent for each. */
  pending: PendingNonce[];
  /** The node's pending count minus its mined count: unmined transactions of the key, any instance. */
  pendingOnNode: number;
  stats: SenderStats;
}

/**
 * The only holder of the attester key. Sends ComplianceRegistry.activate / revoke and waits until
 * mined; the fee policy, the nonce queue and replacement of stuck transactions are the
 * TransactionSender's. One activation per wallet is in flight per instance: a second request for
 * the same wallet waits for the first one's transaction instead of sending another.
 */
@Injectable()
export class AttesterService implements OnApplicationShutdown {
  private readonly logger = new Logger(AttesterService.name);
  private readonly signer: Wallet;
  private readonly sender: TransactionSender;
  private readonly balance: BalanceWatch;
  private readonly inFlight = new Map<string, Promise<MinedActivation>>();

  constructor(
    private readonly connection: RegistryConnection,
    config: ComplianceConfig,
    keys: ComplianceKeys,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly activity?: ActivityLog,
  ) {
    this.signer = new Wallet(keys.attesterPrivateKey, connection.provider);
    this.sender = new TransactionSender(
      this.signer,
      connection.provider,
      {
        maxFeeWei: config.attesterMaxFeeWei,
        replaceAfterMs: config.attesterReplaceAfterMs,
        receiptTimeoutMs: config.attesterReceiptTimeoutMs,
      },
      this.logger,
    );
    this.balance = new BalanceWatch(this.signer.address, config.attesterLowBalanceWei, this.logger);
  }

  onApplicationShutdown(): void {
    this.sender.close();
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
    const key = wallet.toLowerCase();
    const running = this.inFlight.get(key);
    if (running) return running;
    const activation = this.transact(
      COMPLIANCE_REGISTRY.encodeFunctionData('activate', [wallet, until]),
    )
      .then((mined) => ({ ...mined, until }))
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, activation);
    return activation;
  }

  /**
   * Ends the wallet's session now (ComplianceRegistry.revoke), mined before it returns; then
   * session.revoked is recorded for the wallet's account with `reason` (the operator's CLI, or
   * the screening watcher with the system as actor).
   */
  async revoke(
    wallet: string,
    reason: SessionRevocationReason = 'operator',
    actor?: ActivityActor,
  ): Promise<MinedActivation> {
    const mined = await this.transact(COMPLIANCE_REGISTRY.encodeFunctionData('revoke', [wallet]));
    await recordForWalletOwner(
      this.dataSource,
      this.activity,
      getAddress(wallet),
      'session.revoked',
      {
        reason,
        txHash: mined.txHash,
        blockNumber: mined.blockNumber,
      },
      actor,
    );
    return mined;
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

  /** For readiness: address, balance (checked against the threshold), unmined transactions. */
  async status(): Promise<AttesterStatus> {
    const provider = this.connection.provider;
    const [balanceWei, pendingCount, minedCount] = await Promise.all([
      provider.getBalance(this.signer.address),
      provider.getTransactionCount(this.signer.address, 'pending'),
      provider.getTransactionCount(this.signer.address, 'latest'),
    ]);
    return {
      address: this.signer.address,
      balanceWei,
      lowBalance: this.balance.observe(balanceWei),
      pending: [...this.sender.pending.values()],
      pendingOnNode: Math.max(0, pendingCount - minedCount),
      stats: { ...this.sender.stats },
    };
  }

  private async transact(data: string): Promise<MinedActivation> {
    const tx: TransactionRequest = {
      to: this.connection.registryAddress,
      data,
      from: this.signer.address,
      chainId: this.connection.chainId,
    };
    // Simulated before the queue: a revert (key not an attester, expiry in the past) spends no nonce.
    let gasLimit: bigint;
    try {
      gasLimit = ((await this.connection.provider.estimateGas(tx)) * 12n) / 10n;
    } catch (error) {
      throw beforeSendFailure(error);
    }
    const receipt = await this.sender.sendAndWait({ ...tx, gasLimit });
    this.checkBalanceSoon();
    if (receipt.status !== 1)
      throw broadcastFailed(
        'The activation transaction reverted on chain',
        undefined,
        receipt.hash,
      );
    return { txHash: receipt.hash, blockNumber: receipt.blockNumber };
  }

  /** After spending gas: a crossing of the low-balance threshold is logged when it happens. */
  private checkBalanceSoon(): void {
    this.connection.provider
      .getBalance(this.signer.address)
      .then((wei) => this.balance.observe(wei))
      .catch(() => undefined);
  }
}
