/**
 * GET /api/v1/defi/transactions/:txHash: any hash, relayed here or not. A hash the node does not
 * know is NOT_FOUND (not an error); a mined one is CONFIRMED (with what a swap paid and received,
 * or the tokenId a mint created) or REVERTED (with the reason, decoded as the relay's simulation
 * decodes it: the transaction replayed with eth_call on the state before its block).
 */
import { Inject, Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { ApiError } from '../../common/errors/api-error';
import { DEFI_CHAIN, DefiChain, RawReceipt, RawTransaction } from '../chain/defi-chain.port';
import { kindOf, TxKind } from './broadcast-targets';
import type {
  RevertReasonDto,
  TransactionStatusResponseDto,
} from './dto/transaction-status.response';
import { mintedTokenId, swapAmounts } from './receipt-effects';
import { OUT_OF_GAS_HINT } from './node-refusals';
import { explainRevert } from './revert-explanation';
import { SafeExec, safeExecKindOf } from './safe-exec';
import { SafeExecChecks } from './safe-exec.service';

const UNREPRODUCED_HINT =
  'Read the transaction in a block explorer or trace it (debug_traceTransaction) on a node that keeps history; build and sign a new one.';

@Injectable()
export class TransactionStatusService {
  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly safes: SafeExecChecks,
  ) {}

  async status(txHash: string): Promise<TransactionStatusResponseDto> {
    return (await this.inspect(txHash)).status;
  }

  /** The status, with the transaction and its receipt as the node gave them (when it has them). */
  async inspect(txHash: string): Promise<{
    status: TransactionStatusResponseDto;
    tx: RawTransaction | null;
    receipt: RawReceipt | null;
  }> {
    const hash = txHash.toLowerCase();
    const tx = await this.chain.transactionByHash(hash);
    if (!tx) return { status: notFound(hash), tx: null, receipt: null };
    const safeExec = this.safeExecOf(tx);
    const seen = this.describe(hash, tx, safeExec);
    if (tx.blockNumber === null) return { status: seen, tx, receipt: null };
    const [receipt, latest] = await Promise.all([
      this.chain.transactionReceipt(hash),
      this.chain.blockNumber(),
    ]);
    if (!receipt) return { status: seen, tx, receipt: null };
    return { status: await this.minedStatus(seen, tx, receipt, latest, safeExec), tx, receipt };
  }

  private async minedStatus(
    seen: TransactionStatusResponseDto,
    tx: RawTransaction,
    receipt: RawReceipt,
    latest: number,
    safeExec: SafeExec | null,
  ): Promise<TransactionStatusResponseDto> {
    const blockNumber = Number(receipt.blockNumber);
    const mined = Object.assign(seen, {
      blockNumber,
      confirmations: Math.max(0, latest - blockNumber + 1),
      gasUsed: BigInt(receipt.gasUsed).toString(),
      effectiveGasPrice:
        receipt.effectiveGasPrice === undefined
          ? null
          : BigInt(receipt.effectiveGasPrice).toString(),
    });
    if (BigInt(receipt.status) === 1n)
      return Object.assign(
        mined,
        { status: 'CONFIRMED' as const },
        // A Safe transaction's effects are the Safe's (it pays and receives, not the sender).
        this.effects(seen.kind, receipt, safeExec?.safe ?? tx.from),
      );
    return Object.assign(mined, {
      status: 'REVERTED' as const,
      revert: await this.revertOf(tx, blockNumber, BigInt(receipt.gasUsed), safeExec),
    });
  }

  /** execTransaction to a Safe with a batch of our shapes: what the Safe executes; else null. */
  private safeExecOf(tx: RawTransaction): SafeExec | null {
    if (tx.to === null) return null;
    return safeExecKindOf(this.chain.network(), {
      to: getAddress(tx.to),
      data: tx.input,
      from: getAddress(tx.from),
      value: BigInt(tx.value),
    });
  }

  /** A transaction the node holds, not (yet) mined: PENDING. */
  private describe(
    hash: string,
    tx: RawTransaction,
    safeExec: SafeExec | null,
  ): TransactionStatusResponseDto {
    const to = tx.to === null ? null : getAddress(tx.to);
    return {
      txHash: hash,
      status: 'PENDING',
      blockNumber: null,
      confirmations: 0,
      gasUsed: null,
      effectiveGasPrice: null,
      from: getAddress(tx.from),
      to,
      nonce: Number(tx.nonce),
      kind:
        safeExec?.kind ??
        kindOf(this.chain.network(), {
          to,
          data: tx.input,
          from: getAddress(tx.from),
          value: BigInt(tx.value),
        }),
    };
  }

  /** What a confirmed swap paid and received, or the tokenId a mint created. */
  private effects(
    kind: TxKind | null,
    receipt: RawReceipt,
    wallet: string,
  ): Pick<TransactionStatusResponseDto, 'swap' | 'tokenId'> {
    const network = this.chain.network();
    if (kind === 'swap') {
      const swap = swapAmounts(network, receipt.logs, wallet);
      return swap ? { swap } : {};
    }
    if (kind === 'mint') {
      const tokenId = mintedTokenId(network, receipt.logs);
      return tokenId ? { tokenId } : {};
    }
    return {};
  }

  /**
   * Receipts carry no revert data: the transaction is replayed with eth_call (same from, to, data,
   * value and gas) on the state before its block. A transaction that depended on others of its
   * block may not revert again; a node without that state cannot replay it: both say so.
   */
  private async revertOf(
    tx: RawTransaction,
    blockNumber: number,
    gasUsed: bigint,
    safeExec: SafeExec | null,
  ): Promise<RevertReasonDto> {
    // All of its gas limit used: it ran out of gas (a revert refunds what it did not use).
    if (gasUsed === BigInt(tx.gas))
      return {
        code: 'OUT_OF_GAS',
        message: `it ran out of gas in block ${blockNumber}: it used all of its gas limit ${gasUsed}`,
        hint: OUT_OF_GAS_HINT,
      };
    if (tx.to === null)
      return {
        code: 'REVERTED',
        message: 'the contract creation reverted',
        hint: UNREPRODUCED_HINT,
      };
    try {
      const replay = await this.chain.simulate(
        {
          from: tx.from,
          to: tx.to,
          data: tx.input,
          value: BigInt(tx.value),
          gas: BigInt(tx.gas),
        },
        Math.max(0, blockNumber - 1),
      );
      // A Safe's GS013 hides its batch's reason: replayed in the Safe's context.
      const inner =
        !replay.ok && replay.revert?.code === 'SAFE_EXECUTION_FAILED' && safeExec
          ? await this.safes.batchRevert(safeExec, Math.max(0, blockNumber - 1))
          : null;
      if (inner) return explainRevert(inner);
      if (!replay.ok && replay.revert) return explainRevert(replay.revert);
      if (!replay.ok && /out of gas/i.test(replay.refusal))
        return {
          code: 'OUT_OF_GAS',
          message: `it reverted in block ${blockNumber}; replayed, it runs out of gas at its gas limit`,
          hint: OUT_OF_GAS_HINT,
        };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return {
        code: 'REVERTED',
        message: `it reverted in block ${blockNumber}; the node could not replay it to read the reason`,
        hint: UNREPRODUCED_HINT,
      };
    }
    return {
      code: 'REVERTED',
      message: `it reverted in block ${blockNumber}, but replayed on the state before that block it does not: it depended on a transaction before it in the same block`,
      hint: UNREPRODUCED_HINT,
    };
  }
}

function notFound(hash: string): TransactionStatusResponseDto {
  return {
    txHash: hash,
    status: 'NOT_FOUND',
    blockNumber: null,
    confirmations: 0,
    gasUsed: null,
    effectiveGasPrice: null,
    from: null,
    to: null,
    nonce: null,
    kind: null,
  };
}
