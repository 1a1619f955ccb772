/**
 * POST /api/v1/defi/transactions: the relay, one phase per method, in the pipeline's order:
 * decode (validation: the bytes, the chain, a target the service builds for), authorize (the
 * sender is not another account's wallet), then broadcast: the same bytes already on chain answer
 * their status (idempotent), the nonce is checked against the wallet's pending nonce, the
 * transaction is simulated at the latest block (pending when the wallet has unmined ones; a revert is refused before it costs gas), and
 * only then sent with eth_sendRawTransaction through the service's RPC.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Principal } from '../../auth/principal';
import {
  SanctionsScreen,
  walletSanctionedError,
} from '../../compliance/screening/sanctions-screen.service';
import { WalletsService } from '../../compliance/wallets/wallets.service';
import { ReceiptExecutionsService } from '../../receipts/execution/receipt-executions.service';
import { DEFI_CHAIN, DefiChain } from '../chain/defi-chain.port';
import { broadcastKind, TxKind } from './broadcast-targets';
import type { RelayResponseDto, RelayStatus } from './dto/transaction-status.response';
import {
  classifyRefusal,
  insufficientFunds,
  nonceConflict,
  refusalError,
  simulationFailure,
} from './node-refusals';
import { simulationRefusal } from './revert-explanation';
import { decodeSignedTransaction, SignedTx } from './signed-transaction';
import { RelayedTransactionsService } from './relayed-transactions.service';
import { TransactionStatusService } from './transaction-status.service';
import { builtCallOf, SafeExec, safeExecOf } from './safe-exec';
import { SafeExecChecks } from './safe-exec.service';

/** The kinds that take a wallet out of a position (decrease, burn, collect). */
const EXIT_KINDS: ReadonlySet<TxKind> = new Set(['decrease', 'collect']);

/** A decoded transaction the relay may send: a target the service builds for, so `to` is set. */
export interface RelayedTx extends SignedTx {
  to: string;
  kind: TxKind;
  /** execTransaction to a Safe: what the Safe executes (design §10; safe-exec.ts). */
  safeExec?: SafeExec;
}

@Injectable()
export class RelayService {
  private readonly logger = new Logger(RelayService.name);

  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly wallets: WalletsService,
    private readonly statuses: TransactionStatusService,
    private readonly relayed: RelayedTransactionsService,
    private readonly safes: SafeExecChecks,
    private readonly sanctions: SanctionsScreen,
    private readonly receipts: ReceiptExecutionsService,
  ) {}

  async relay(signedTransaction: string, principal?: Principal): Promise<RelayResponseDto> {
    const tx = this.decode(signedTransaction);
    await this.authorize(tx, principal);
    await this.screen(tx);
    const known = await this.knownStatus(tx);
    if (known) return known;
    const block = await this.checkAccount(tx);
    await this.simulate(tx, block);
    const receiptId = principal ? await this.relayedReceipt(principal, tx) : null;
    let sent: RelayResponseDto;
    try {
      sent = await this.send(tx);
    } catch (error) {
      if (receiptId) await this.receipts.unmarkRelayed(receiptId).catch(() => undefined);
      throw error;
    }
    // Watched for transaction.confirmed / transaction.reverted (webhooks), once it is on its way.
    // It is sent whatever happens here: a failed write costs its event, never the 202.
    if (principal)
      await this.remember(principal, tx, receiptId).catch((err: unknown) =>
        this.logger.error(
          { txHash: tx.hash, err: (err as Error).message },
          'Could not remember a relayed transaction: no transaction.* event for it',
        ),
      );
    return sent;
  }

  /**
   * The compliance receipt of the build it is (issue 56), if any, marked relayed BEFORE it is sent:
   * a chain that mines at once must not let the receipts' chain watch take it for a transaction the
   * wallet sent itself. A Safe's execTransaction is the build of the Safe's trade (its batch's last
   * call). A failed read or write costs the receipt's relay mark, never the relay.
   */
  private async relayedReceipt(principal: Principal, tx: RelayedTx): Promise<string | null> {
    try {
      const built = tx.safeExec ? builtCallOf(tx.safeExec) : tx;
      const receiptId = await this.receipts.receiptIdFor(principal.accountId, built);
      if (receiptId) await this.receipts.markRelayed(receiptId);
      return receiptId;
    } catch (err) {
      this.logger.error(
        { txHash: tx.hash, err: (err as Error).message },
        'Could not mark the receipt of a relayed transaction',
      );
      return null;
    }
  }

  /** Watched until mined, with its compliance receipt (issue 56), if any. */
  private async remember(
    principal: Principal,
    tx: RelayedTx,
    receiptId: string | null,
  ): Promise<void> {
    await this.relayed.remember(principal, tx, receiptId);
  }

  /** Validation: 400 INVALID_PARAMS (bytes, signature, chain) or BROADCAST_TARGET_NOT_ALLOWED. */
  decode(signedTransaction: string): RelayedTx {
    const network = this.chain.network();
    const tx = decodeSignedTransaction(signedTransaction, network.chainId);
    // Unwrap step: a Safe's execTransaction is judged by the calls the Safe will make.
    const safeExec = safeExecOf(network, tx);
    if (safeExec) return Object.assign(tx, { to: tx.to!, kind: safeExec.kind, safeExec });
    const kind = broadcastKind(network, tx); // to, data, from, value
    return Object.assign(tx, { to: tx.to!, kind });
  }

  /**
   * The recovered sender must not be a wallet bound to another account (403, as on builds); a
   * Safe must be bound to the caller and be a Safe (SafeExecChecks).
   */
  async authorize(tx: RelayedTx, principal?: Principal): Promise<void> {
    await this.wallets.assertNotBoundElsewhere(tx.from, principal?.accountId);
    if (tx.safeExec) await this.safes.authorize(tx.safeExec, principal);
  }

  /**
   * Issue 52: nothing of a wallet the sanctions oracle lists is relayed, approvals included (the
   * hook refuses its trades, but an approval never meets the hook): 403 WALLET_SANCTIONED, phase
   * broadcast; for a Safe's execTransaction, its sender and the Safe both. Exits follow the
   * network's exitPolicy, as the hook does. One eth_call.
   */
  async screen(tx: RelayedTx): Promise<void> {
    if (!this.sanctions.oracle) return;
    const kinds = tx.safeExec?.kinds ?? [tx.kind];
    const exit = kinds.every((kind) => EXIT_KINDS.has(kind));
    if (exit && this.chain.network().compliance.exitPolicy === 'allow') return;
    const wallets = tx.safeExec ? [tx.from, tx.safeExec.safe] : [tx.from];
    const listed = (await this.sanctions.screen(wallets)).find((w) => w.sanctioned);
    if (listed)
      throw walletSanctionedError(
        listed.walletAddress,
        'the relay sends none of its transactions',
        'broadcast',
      );
  }

  /** The same bytes sent before: the chain holds them, so answer their status, not an error. */
  async knownStatus(tx: RelayedTx): Promise<RelayResponseDto | undefined> {
    if (!(await this.chain.transactionByHash(tx.hash))) return undefined;
    const { status } = await this.statuses.status(tx.hash);
    return this.response(tx, status === 'NOT_FOUND' ? 'PENDING' : status);
  }

  /**
   * The nonce must be the wallet's next one (pending included): a used nonce is 409 even on a
   * node that would take it into its pool, and a gap would leave the transaction queued forever.
   * The gas limit must fit in a block. The wallet must hold gas limit x max fee + value, as the node requires: refused here with the
   * figures, rather than sent to be refused.
   *
   * Answers the block to simulate at: 'pending' when the wallet has transactions not yet mined
   * (its pending nonce is above its latest one), so that a swap relayed right after its
   * approvals is simulated after them, not refused for an allowance they are about to grant.
   */
  async checkAccount(tx: RelayedTx): Promise<'latest' | 'pending'> {
    const [expected, confirmed, balance, blockGasLimit] = await Promise.all([
      this.chain.nextNonce(tx.from),
      this.chain.confirmedNonce(tx.from),
      this.chain.balance(tx.from),
      this.chain.blockGasLimit(),
    ]);
    if (tx.nonce !== expected) throw nonceConflict(tx, expected);
    // eth_call caps its gas at the node's own limit: above the block's, it would pass and be sent.
    if (tx.gasLimit > blockGasLimit) throw refusalError('gas-limit', tx);
    const required = tx.gasLimit * tx.maxFeePerGas + tx.value;
    if (balance < required) throw insufficientFunds(tx, balance, required);
    return expected > confirmed ? 'pending' : 'latest';
  }

  /**
   * eth_call with the transaction's own from, to, data, value and gas limit. A revert is
   * SIMULATION_REVERTED (or SESSION_NOT_ACTIVE); an answer without revert data (out of gas, gas
   * limit outside the chain's bounds) is a 400 about the gas limit, never a 503.
   */
  async simulate(tx: RelayedTx, block: 'latest' | 'pending' = 'latest'): Promise<void> {
    const outcome = await this.chain.simulate(
      { from: tx.from, to: tx.to, data: tx.data, value: tx.value, gas: tx.gasLimit },
      block,
    );
    if (outcome.ok) return;
    // A Safe answers GS013 for any revert inside its batch: read the batch's own reason.
    const inner =
      outcome.revert?.code === 'SAFE_EXECUTION_FAILED' && tx.safeExec
        ? await this.safes.batchRevert(tx.safeExec, block)
        : null;
    if (inner) throw simulationRefusal(inner, block);
    if (outcome.revert) throw simulationRefusal(outcome.revert, block);
    this.logger.warn(
      {
        event: 'broadcast.simulation-refused',
        txHash: tx.hash,
        nodeMessage: outcome.refusal.slice(0, 300),
      },
      `simulation of ${tx.hash} failed without revert data`,
    );
    throw simulationFailure(outcome.refusal, tx);
  }

  /** eth_sendRawTransaction; a refusal the chain then shows as held (or mined) was a send. */
  async send(tx: RelayedTx): Promise<RelayResponseDto> {
    const sent = await this.chain.sendRawTransaction(tx.raw);
    if (sent.ok) {
      if (sent.hash.toLowerCase() !== tx.hash)
        this.logger.warn(`eth_sendRawTransaction answered ${sent.hash} for ${tx.hash}`);
      return this.response(tx, 'PENDING');
    }
    // A node that mines on send may refuse a transaction it mined anyway (a revert between the
    // simulation and the block), and a node may answer "already known": both are on chain.
    const known = await this.knownStatus(tx);
    if (known) return known;
    const kind = classifyRefusal(sent.message);
    this.logger.warn(
      {
        event: 'broadcast.refused',
        txHash: tx.hash,
        from: tx.from,
        nonce: tx.nonce,
        refusal: kind,
        rpcCode: sent.rpcCode,
        nodeMessage: sent.message.slice(0, 300),
      },
      `node refused ${tx.hash} (${kind})`,
    );
    const expected = kind === 'nonce' ? await this.chain.nextNonce(tx.from) : undefined;
    throw refusalError(kind, tx, expected);
  }

  private response(tx: RelayedTx, status: RelayStatus): RelayResponseDto {
    return { txHash: tx.hash, status, from: tx.from, to: tx.to, nonce: tx.nonce, kind: tx.kind };
  }
}
