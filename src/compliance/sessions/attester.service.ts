import { Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { getAddress, TransactionRequest } from 'ethers';
import { DataSource } from 'typeorm';
import { COMPLIANCE_REGISTRY } from '../../chain/abi/compliance-registry';
import { revertDataOf } from '../../chain/encoding/revert-decoder';
import { openSigner } from '../../chain/signers/open-signer';
import { ApiError } from '../../common/errors/api-error';
import { ComplianceConfig } from '../../config/compliance.config';
import { ActivityLog } from '../../events/activity-log';
import { OPERATOR_ACTOR, type ActivityActor } from '../../events/activity-event';
import { Metrics } from '../../metrics/metrics.service';
import { ComplianceKeys } from '../compliance-keys';
import { recordForWalletOwner } from '../wallet-owner-activity';
import {
  AttesterAccount,
  AttesterAccountStatus,
  AttesterRole,
  AttesterTrouble,
} from './attester-account';
import { beforeSendFailure, broadcastFailed, chainUnavailable } from './chain-errors';
import type { OwedRevocation } from './owed-revocation.entity';
import { OwedRevocations, OwedRevocationStats } from './owed-revocations';
import { RegistryConnection } from './registry-connection';
import { waitingReason } from './revocation-wait';

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
  /** The attester address whose transaction mined (the primary's, or the standby's). */
  from?: string;
}

/** For readiness and the balance monitor: every attester, and the revocations owed. */
export interface AttesterStatus extends AttesterAccountStatus {
  standby?: AttesterAccountStatus;
  owed: OwedRevocationStats;
}

/** What a pass over the owed revocations did. */
export interface OwedRevocationsPass {
  mined: number;
  waiting: number;
}

type Operation = 'activation' | 'revocation' | 'enforcement';

/**
 * The only holder of the attester keys: the primary and, when configured, a standby (a second
 * registry attester). Sends ComplianceRegistry.activate / revoke and waits until mined; the fee
 * policy, the nonce queue and replacement of stuck transactions are each key's TransactionSender's.
 * A transaction the primary cannot pay for, or that the registry refuses from it, is sent by the
 * standby instead (logged `attester.failover`, counted in cgk_attester_failovers_total). One
 * activation per wallet is in flight per instance: a second request for the same wallet waits for
 * the first one's transaction. Every revocation is owed (compliance_revocations) before it is sent
 * and stays owed until mined: RevocationRetry sends it again until then.
 */
@Injectable()
export class AttesterService implements OnApplicationShutdown {
  private readonly logger = new Logger(AttesterService.name);
  private readonly accounts: AttesterAccount[];
  private readonly owed: OwedRevocations;
  private readonly inFlight = new Map<string, Promise<MinedActivation>>();
  private readonly revoking = new Map<string, Promise<MinedActivation>>();

  constructor(
    private readonly connection: RegistryConnection,
    config: ComplianceConfig,
    keys: ComplianceKeys,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly activity?: ActivityLog,
    @Optional() private readonly metrics?: Metrics,
  ) {
    const settings = {
      maxFeeWei: config.attesterMaxFeeWei,
      replaceAfterMs: config.attesterReplaceAfterMs,
      receiptTimeoutMs: config.attesterReceiptTimeoutMs,
      lowBalanceWei: config.attesterLowBalanceWei,
    };
    const open = (role: AttesterRole, source = keys.attesterKeys.primary) =>
      new AttesterAccount(
        role,
        openSigner(
          source,
          connection.provider,
          role === 'primary' ? 'PKCS11_KEY_LABEL' : 'PKCS11_STANDBY_KEY_LABEL',
        ),
        connection.provider,
        settings,
        this.logger,
      );
    this.accounts = [open('primary')];
    if (keys.attesterKeys.standby) {
      try {
        this.accounts.push(open('standby', keys.attesterKeys.standby));
      } catch (error) {
        this.accounts[0].held.close();
        throw error;
      }
    }
    this.owed = new OwedRevocations(dataSource);
  }

  onApplicationShutdown(): void {
    for (const account of this.accounts) {
      account.sender.close();
      account.held.close();
    }
  }

  /** The primary attester's address (whatever signs for it: a key, or a PKCS#11 token). */
  get address(): string {
    return this.accounts[0].address;
  }

  /** The standby's address; undefined when none is configured (the default). */
  get standbyAddress(): string | undefined {
    return this.accounts[1]?.address;
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
      'activation',
    )
      .then((mined) => ({ ...mined, until }))
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, activation);
    return activation;
  }

  /**
   * Ends the wallet's session now (ComplianceRegistry.revoke): owed first (compliance_revocations,
   * durable), then sent and mined before it returns; then session.revoked is recorded for the
   * wallet's account with `reason` (the operator's CLI, or the screening watcher with the system
   * as actor). When it cannot be mined now it stays owed, is sent again every REVOCATION_RETRY_MS
   * (RevocationRetry), and this throws saying so.
   */
  async revoke(
    wallet: string,
    reason: SessionRevocationReason = 'operator',
    actor: ActivityActor = OPERATOR_ACTOR,
  ): Promise<MinedActivation> {
    const owed = await this.owed.owe(getAddress(wallet), reason, actor);
    return this.sendOwed(owed);
  }

  /**
   * Issue 54: a transaction of the attester to another contract than the registry (hook v3's
   * `setRequired`, the attester being the hook's enforcer), with the same fees, nonce queue,
   * replacement and standby failover as activations; mined before it returns.
   */
  async sendAsAttester(to: string, data: string): Promise<MinedActivation> {
    return this.transact(data, 'enforcement', to);
  }

  /** Sends every owed revocation again (oldest first, `limit` at most): RevocationRetry's pass. */
  async retryOwed(limit = 100): Promise<OwedRevocationsPass> {
    const pass: OwedRevocationsPass = { mined: 0, waiting: 0 };
    for (const row of await this.owed.pending(limit)) {
      try {
        await this.sendOwed(row);
        pass.mined += 1;
      } catch {
        pass.waiting += 1; // logged by sendOwed, with why it waits
      }
    }
    return pass;
  }

  /** How many revocations are owed and since when (every instance's). */
  owedStats(): Promise<OwedRevocationStats> {
    return this.owed.stats();
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

  /**
   * For readiness and the monitor: each attester's balance (checked against the threshold and
   * against one transaction at the next block's fees), unmined transactions, and what is owed.
   */
  async status(): Promise<AttesterStatus> {
    const provider = this.connection.provider;
    const [fees, owed] = await Promise.all([provider.getFeeData(), this.owed.stats()]);
    const maxFee = fees.maxFeePerGas ?? fees.gasPrice ?? 0n;
    const isAttester = async (address: string) => {
      const data = await provider.call({
        to: this.connection.registryAddress,
        data: COMPLIANCE_REGISTRY.encodeFunctionData('isAttester', [address]),
      });
      return COMPLIANCE_REGISTRY.decodeFunctionResult('isAttester', data)[0] as boolean;
    };
    const [primary, standby] = await Promise.all(
      this.accounts.map((account) => account.status(provider, maxFee, isAttester)),
    );
    return { ...primary, ...(standby ? { standby } : {}), owed };
  }

  /** One owed revocation, sent (once at a time per wallet in this instance) and settled. */
  private sendOwed(row: OwedRevocation): Promise<MinedActivation> {
    const key = row.walletAddress.toLowerCase();
    const running = this.revoking.get(key);
    if (running) return running;
    const sending = this.sendAndSettle(row).finally(() => this.revoking.delete(key));
    this.revoking.set(key, sending);
    return sending;
  }

  private async sendAndSettle(row: OwedRevocation): Promise<MinedActivation> {
    let mined: MinedActivation;
    try {
      mined = await this.transact(
        COMPLIANCE_REGISTRY.encodeFunctionData('revoke', [row.walletAddress]),
        'revocation',
      );
    } catch (error) {
      const why = waitingReason(error);
      const attempts = await this.owed.failed(row, why).catch(() => row.attempts + 1);
      const owedForS = Math.round((Date.now() - row.requestedAt.getTime()) / 1000);
      // Logged at every failed send (each is a retry interval apart): an owed revocation is the
      // worst silent failure this service can have.
      this.logger.warn(
        {
          event: 'compliance.revocation.owed',
          walletAddress: row.walletAddress,
          reason: row.reason,
          owedSince: row.requestedAt.toISOString(),
          owedForS,
          attempts,
          waitingFor: why,
        },
        `revocation of the session of ${row.walletAddress} (${row.reason}) owed for ${owedForS} s, not mined: ${why}; sent again every REVOCATION_RETRY_MS until mined`,
      );
      throw owedError(row, why, error);
    }
    if (await this.owed.settle(row.id, { txHash: mined.txHash, minedBy: mined.from! }))
      await recordForWalletOwner(
        this.dataSource,
        this.activity,
        row.walletAddress,
        'session.revoked',
        {
          reason: row.reason,
          txHash: mined.txHash,
          blockNumber: mined.blockNumber,
          ...(row.attempts > 0
            ? { owedSince: row.requestedAt.toISOString(), attempts: row.attempts + 1 }
            : {}),
        },
        { type: row.actorType as ActivityActor['type'], id: row.actorId },
      );
    return mined;
  }

  /** The primary sends; when it cannot pay or is refused, the standby (if any) sends instead. */
  private async transact(
    data: string,
    operation: Operation,
    to = this.connection.registryAddress,
  ): Promise<MinedActivation> {
    for (const [i, account] of this.accounts.entries()) {
      try {
        const mined = await this.transactWith(account, data, operation, to);
        account.trouble = null;
        return mined;
      } catch (error) {
        const trouble = troubleOf(error);
        if (trouble) account.trouble = trouble;
        const next = this.accounts[i + 1];
        if (!trouble || !next) throw error;
        this.metrics?.attesterFailovers.inc({ reason: trouble, operation });
        this.logger.warn(
          {
            event: 'attester.failover',
            operation,
            reason: trouble,
            from: account.address,
            to: next.address,
          },
          `the ${account.role} attester ${account.address} ${trouble === 'insufficient_funds' ? 'cannot pay for gas' : 'was refused by the registry'}: the ${next.role} attester ${next.address} sends this ${operation}`,
        );
      }
    }
    throw new Error('unreachable: no attester configured');
  }

  private async transactWith(
    account: AttesterAccount,
    data: string,
    operation: Operation,
    to: string,
  ): Promise<MinedActivation> {
    const tx: TransactionRequest = {
      to,
      data,
      from: account.address,
      chainId: this.connection.chainId,
    };
    // Simulated before the queue: a revert (key not an attester, expiry in the past) spends no nonce.
    let gasLimit: bigint;
    try {
      gasLimit = ((await this.connection.provider.estimateGas(tx)) * 12n) / 10n;
    } catch (error) {
      throw beforeSendFailure(error);
    }
    const receipt = await account.sender.sendAndWait({ ...tx, gasLimit });
    this.checkBalanceSoon(account);
    if (receipt.status !== 1)
      throw broadcastFailed(
        `The ${operation} transaction reverted on chain`,
        undefined,
        receipt.hash,
      );
    return { txHash: receipt.hash, blockNumber: receipt.blockNumber, from: account.address };
  }

  /** After spending gas: a crossing of the low-balance threshold is logged when it happens. */
  private checkBalanceSoon(account: AttesterAccount): void {
    this.connection.provider
      .getBalance(account.address)
      .then((wei) => account.balance.observe(wei))
      .catch(() => undefined);
  }
}

/**
 * A failure another attester may not have: this one's funds, or the registry refusing this key
 * (NotAttester: revoked, or never allowed). Any other refusal (an expiry in the past) would be the
 * same from every key.
 */
function troubleOf(error: unknown): AttesterTrouble | null {
  if (!(error instanceof ApiError) || error.code !== 'BROADCAST_FAILED') return null;
  const reason = error.options.extra?.reason;
  if (reason === 'insufficient_funds') return reason;
  if (reason !== 'refused') return null;
  const data = revertDataOf(error.options.cause);
  try {
    return data && COMPLIANCE_REGISTRY.parseError(data)?.name === 'NotAttester' ? 'refused' : null;
  } catch {
    return null;
  }
}

/** The send's error, restated for a revocation: it is owed and will be sent again. */
function owedError(row: OwedRevocation, why: string, cause: unknown): ApiError {
  const code = cause instanceof ApiError ? cause.code : 'BROADCAST_FAILED';
  return new ApiError(
    code,
    `The revocation of the session of ${row.walletAddress} was not mined: ${why}. It is owed (since ${row.requestedAt.toISOString()}) and the service sends it again every REVOCATION_RETRY_MS until it is mined`,
    {
      cause,
      extra: {
        ...(cause instanceof ApiError ? cause.options.extra : {}),
        revocationId: row.id,
        owedSince: row.requestedAt.toISOString(),
      },
    },
  );
}
