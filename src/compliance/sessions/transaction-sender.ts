import { Logger } from '@nestjs/common';
import {
  AbstractSigner,
  JsonRpcProvider,
  toQuantity,
  TransactionReceipt,
  TransactionRequest,
} from 'ethers';
import { isTransportFailure } from '../../chain/chain-errors';
import {
  broadcastFailed,
  chainUnavailable,
  feeOverCap,
  isNonceClash,
  isNonceTaken,
  nodeReason,
  sendRefused,
} from './chain-errors';
import {
  Eip1559Fees,
  FEE_HISTORY_BLOCKS,
  FeeHistory,
  FeeOverCapError,
  feesWithinCap,
  replacementFees,
  SuggestedFees,
  suggestFees,
  TIP_PERCENTILE,
} from './fee-policy';

/**
 * Clash retries are bounded by the request's deadline, not a count: with three instances bursting
 * on one key, the loser of a race may clash several times in a row while the others drain (a
 * count of 8 failed 1 activation in 50 in about half the runs). Backoff: jittered, doubling, capped.
 */
const CLASH_BACKOFF_MS = 25;
const CLASH_BACKOFF_CAP_MS = 400;
const RECEIPT_POLL_MS = [0, 50, 100, 200, 400, 800, 1_000];

export interface SenderSettings {
  maxFeeWei: bigint;
  replaceAfterMs: number;
  receiptTimeoutMs: number;
}

/** A nonce this instance sent and has not seen mined: every hash sent for it (the last is current). */
export interface PendingNonce {
  nonce: number;
  hashes: string[];
  fees: Eip1559Fees;
  firstSentAt: number;
  lastSentAt: number;
  /** Set once a further bump would pass the cap: the transaction is left to mine as it is. */
  atCap: boolean;
}

/** Counters since start, for readiness details and the replica measurements. */
export interface SenderStats {
  sent: number;
  nonceClashes: number;
  replaced: number;
  /** Sends again with a new nonce after another sender's transaction took ours. */
  resent: number;
}

type Outcome = { mined: TransactionReceipt } | { dropped: true } | { timedOut: true };

/**
 * Sends the attester's transactions: EIP-1559 fees from the fee history under a cap, nonces from
 * one in-process queue (only assigning the nonce and handing the signed transaction to the node is
 * serialised; waiting for mining is not), and a watch per nonce that replaces a transaction not
 * mined within `replaceAfterMs` (same nonce, fees bumped) until mined or at the cap. Whichever
 * hash of the nonce mines is the answer.
 *
 * Several instances may share the key: a clash (nonce taken, replacement underpriced) resyncs the
 * counter from the node's pending count and retries; a transaction of ours pushed out by another
 * sender's at the same nonce is sent again with a new one.
 */
export class TransactionSender {
  readonly pending = new Map<number, PendingNonce>();
  readonly stats: SenderStats = { sent: 0, nonceClashes: 0, replaced: 0, resent: 0 };
  private queue: Promise<unknown> = Promise.resolve();
  private nextNonce: number | null = null;
  private closed = false;

  constructor(
    private readonly signer: AbstractSigner,
    private readonly provider: JsonRpcProvider,
    private readonly settings: SenderSettings,
    private readonly logger: Logger,
  ) {}

  close(): void {
    this.closed = true;
  }

  /** Prices, sends and waits for `tx` (gasLimit set) to be mined; the receipt of the hash that landed. */
  async sendAndWait(tx: TransactionRequest): Promise<TransactionReceipt> {
    const deadline = Date.now() + this.settings.receiptTimeoutMs;
    // Priced outside the queue (in parallel); only nonce assignment and the hand-over are serial.
    const fees = await this.priceNew();
    let entry = await this.serialised(() => this.sendNew(tx, fees, deadline));
    for (;;) {
      const outcome = await this.watch(entry, tx, deadline);
      if ('mined' in outcome) return outcome.mined;
      const latest = entry.hashes[entry.hashes.length - 1];
      if ('timedOut' in outcome)
        throw broadcastFailed(
          'The activation transaction was not mined in time',
          undefined,
          latest,
        );
      this.stats.resent += 1;
      this.logger.warn(
        { event: 'attester.tx.dropped', nonce: entry.nonce, hashes: entry.hashes },
        'attester transaction pushed out by another one with its nonce; sending it again',
      );
      const fresh = await this.priceNew();
      entry = await this.serialised(() => this.sendNew(tx, fresh, deadline));
    }
  }

  /** Fees for a new transaction; over the cap: 502 before anything is sent. */
  private async priceNew(): Promise<Eip1559Fees> {
    try {
      return feesWithinCap(await this.suggested(), this.settings.maxFeeWei);
    } catch (error) {
      if (error instanceof FeeOverCapError) throw feeOverCap(error.priceWei, error.capWei);
      throw chainUnavailable(error);
    }
  }

  private async suggested(): Promise<SuggestedFees> {
    const history = (await this.provider.send('eth_feeHistory', [
      toQuantity(FEE_HISTORY_BLOCKS),
      'latest',
      [TIP_PERCENTILE],
    ])) as FeeHistory;
    return suggestFees(history);
  }

  /** Runs `task` after every previously queued one; a failure does not block the queue. */
  private serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async sendNew(
    tx: TransactionRequest,
    fees: Eip1559Fees,
    deadline: number,
  ): Promise<PendingNonce> {
    for (let attempt = 1; ; attempt++) {
      let nonce: number;
      try {
        nonce = this.nextNonce ?? (await this.signer.getNonce('pending'));
      } catch (error) {
        throw chainUnavailable(error);
      }
      try {
        const response = await this.signer.sendTransaction({ ...tx, ...fees, type: 2, nonce });
        this.nextNonce = nonce + 1;
        this.stats.sent += 1;
        const now = Date.now();
        const entry: PendingNonce = {
          nonce,
          hashes: [response.hash],
          fees,
          firstSentAt: now,
          lastSentAt: now,
          atCap: false,
        };
        this.pending.set(nonce, entry);
        return entry;
      } catch (error) {
        this.nextNonce = null;
        if (isNonceClash(error) && Date.now() < deadline) {
          this.stats.nonceClashes += 1;
          this.logger.warn(
            `attester nonce ${nonce} clashed; resyncing from the node (attempt ${attempt})`,
          );
          const ceiling = Math.min(CLASH_BACKOFF_MS * 2 ** (attempt - 1), CLASH_BACKOFF_CAP_MS);
          await sleep(Math.floor(Math.random() * ceiling));
          continue;
        }
        // Unreachable node before it took the transaction: nothing was sent, 503. Otherwise 502
        // naming the cause (funds, nonce), in the answer and in this line.
        if (isTransportFailure(error)) throw chainUnavailable(error);
        const refused = sendRefused(error, 'The node refused the activation transaction');
        this.logger.warn(
          {
            event: 'attester.tx.refused',
            nonce,
            reason: refused.options.extra?.reason,
            nodeReason: nodeReason(error),
          },
          `attester transaction refused by the node: ${String(refused.options.extra?.reason)}`,
        );
        throw refused;
      }
    }
  }

  /**
   * Polls the receipts of every hash sent for the nonce; when one is due, replaces the current
   * transaction (after first checking the nonce is still open: if it was consumed and none of our
   * hashes mined, another sender's transaction took it and ours is dropped).
   */
  private async watch(
    entry: PendingNonce,
    tx: TransactionRequest,
    deadline: number,
  ): Promise<Outcome> {
    try {
      for (let i = 0; ; i++) {
        await sleep(RECEIPT_POLL_MS[Math.min(i, RECEIPT_POLL_MS.length - 1)]);
        const mined = await this.minedReceipt(entry);
        if (mined) return { mined };
        const now = Date.now();
        const expired = now > deadline || this.closed;
        const due = !entry.atCap && now - entry.lastSentAt >= this.settings.replaceAfterMs;
        if (!expired && !due) continue;
        const consumed = await this.nonceConsumed(entry.nonce);
        if (consumed) {
          // Mined between the two reads, or taken by another sender's transaction.
          const late = await this.minedReceipt(entry);
          return late ? { mined: late } : { dropped: true as const };
        }
        if (expired) return { timedOut: true as const };
        await this.replace(entry, tx);
      }
    } finally {
      this.pending.delete(entry.nonce);
    }
  }

  private async minedReceipt(entry: PendingNonce): Promise<TransactionReceipt | null> {
    const receipts = await Promise.all(
      entry.hashes.map((hash) => this.provider.getTransactionReceipt(hash).catch(() => null)),
    );
    return receipts.find((receipt) => receipt !== null) ?? null;
  }

  private async nonceConsumed(nonce: number): Promise<boolean> {
    try {
      return (await this.signer.getNonce('latest')) > nonce;
    } catch {
      return false;
    }
  }

  private async replace(entry: PendingNonce, tx: TransactionRequest): Promise<void> {
    let fees: Eip1559Fees | null;
    try {
      fees = replacementFees(entry.fees, await this.suggested(), this.settings.maxFeeWei);
    } catch {
      entry.lastSentAt = Date.now(); // the RPC did not answer: try again after another interval
      return;
    }
    if (!fees) {
      entry.atCap = true;
      this.logger.warn(
        { event: 'attester.tx.at-cap', nonce: entry.nonce, hash: entry.hashes.at(-1) },
        'attester transaction not mined and its fees cannot be bumped under ATTESTER_MAX_FEE_GWEI',
      );
      return;
    }
    const oldHash = entry.hashes[entry.hashes.length - 1];
    try {
      const response = await this.signer.sendTransaction({
        ...tx,
        ...fees,
        type: 2,
        nonce: entry.nonce,
      });
      this.stats.replaced += 1;
      this.logger.warn(
        {
          event: 'attester.tx.replaced',
          nonce: entry.nonce,
          oldHash,
          newHash: response.hash,
          oldFees: printable(entry.fees),
          newFees: printable(fees),
        },
        'attester transaction not mined in time: replaced with higher fees',
      );
      entry.hashes.push(response.hash);
      entry.fees = fees;
    } catch (error) {
      const reason = nodeReason(error);
      // Mined meanwhile (the next poll finds it), or another sender's transaction holds the nonce
      // with higher fees: bump from what we offered, after another interval.
      if (!isNonceTaken(error)) entry.fees = fees;
      this.logger.warn(
        { event: 'attester.tx.replace-refused', nonce: entry.nonce, hash: oldHash, reason },
        'attester replacement refused by the node',
      );
    }
    entry.lastSentAt = Date.now();
  }
}

function printable(fees: Eip1559Fees) {
  return {
    maxFeePerGas: fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
  };
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
