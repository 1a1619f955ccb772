import { Logger } from '@nestjs/common';
import type { JsonRpcProvider } from 'ethers';
import type { HeldSigner } from '../../chain/signers/open-signer';
import { BalanceWatch } from './balance-watch';
import { PendingNonce, SenderSettings, SenderStats, TransactionSender } from './transaction-sender';

export type AttesterRole = 'primary' | 'standby';

/**
 * Gas one registry transaction may need at most (an activation measures ~48,000, a revocation
 * ~30,000): with the next block's fees, the balance below which the attester cannot pay.
 */
export const REGISTRY_TX_GAS = 60_000n;

/** Why an attester's last transaction did not go out, until one does. */
export type AttesterTrouble = 'insufficient_funds' | 'refused';

/** One attester key (the primary, or the standby) with its own nonce queue and balance watch. */
export class AttesterAccount {
  readonly sender: TransactionSender;
  readonly balance: BalanceWatch;
  /** Set by a failed send, cleared by the next mined transaction of this key. */
  trouble: AttesterTrouble | null = null;

  constructor(
    readonly role: AttesterRole,
    readonly held: HeldSigner,
    provider: JsonRpcProvider,
    settings: SenderSettings & { lowBalanceWei: bigint },
    logger: Logger,
  ) {
    this.sender = new TransactionSender(held.signer, provider, settings, logger);
    this.balance = new BalanceWatch(held.address, settings.lowBalanceWei, logger);
  }

  get address(): string {
    return this.held.address;
  }

  /**
   * Balance, unmined transactions on the node, and whether one more transaction can be paid. A key
   * the registry refused is asked about again (`isAttester`): allowed since, its trouble is over.
   */
  async status(
    provider: JsonRpcProvider,
    maxFeePerGas: bigint,
    isAttester: (address: string) => Promise<boolean>,
  ): Promise<AttesterAccountStatus> {
    if (this.trouble === 'refused' && (await isAttester(this.address))) this.trouble = null;
    const [balanceWei, pendingCount, minedCount] = await Promise.all([
      provider.getBalance(this.address),
      provider.getTransactionCount(this.address, 'pending'),
      provider.getTransactionCount(this.address, 'latest'),
    ]);
    const canPay = balanceWei >= REGISTRY_TX_GAS * maxFeePerGas;
    // Funded since its last refusal for funds: the next send will go out.
    if (canPay && this.trouble === 'insufficient_funds') this.trouble = null;
    return {
      role: this.role,
      address: this.address,
      signer: this.held.description,
      balanceWei,
      lowBalance: this.balance.observe(balanceWei),
      canPay,
      trouble: this.trouble,
      pending: [...this.sender.pending.values()],
      pendingOnNode: Math.max(0, pendingCount - minedCount),
      stats: { ...this.sender.stats },
    };
  }
}

export interface AttesterAccountStatus {
  role: AttesterRole;
  address: string;
  /** `key`, or `pkcs11:<token>/<key label>`. */
  signer: string;
  balanceWei: bigint;
  lowBalance: boolean;
  /** The balance pays one registry transaction (REGISTRY_TX_GAS) at the next block's fees. */
  canPay: boolean;
  trouble: AttesterTrouble | null;
  /** Nonces this instance sent and has not seen mined, with every hash sent for each. */
  pending: PendingNonce[];
  /** The node's pending count minus its mined count: unmined transactions of the key, any instance. */
  pendingOnNode: number;
  stats: SenderStats;
}
