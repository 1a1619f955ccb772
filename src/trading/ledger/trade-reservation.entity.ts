import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

const bigintNumber = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/**
 * reserved: a build passed the trade rules and was answered (with its authorization when the
 * account enforces on chain); it counts toward the daily limits until it is mined or expires.
 * mined: seen mined (relay watcher) or its authorization's nonce seen used on chain after the
 * deadline; counts for 24 h from minedMs. expired: its deadline passed unmined (or, on chain,
 * its nonce unused): counts no more.
 */
export type ReservationStatus = 'reserved' | 'mined' | 'expired';

/**
 * The daily-limit ledger (issue 54): one row per token a build gives. Written by
 * TradeLedgerService.reserve under the account's lock (PostgreSQL advisory lock; SQLite's write
 * transaction), so that replicas summing and inserting at once never authorize past a limit.
 */
@Entity('trade_reservations')
@Index('IDX_trade_reservations_account', ['accountId', 'token', 'status'])
@Index('IDX_trade_reservations_receipt', ['receiptId'])
@Index('IDX_trade_reservations_due', ['status', 'deadline'])
export class TradeReservation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** The build's: rows of one build share it (a liquidity addition gives two tokens). */
  @Column({ name: 'build_id', type: 'varchar', length: 36 })
  buildId: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** Checksummed. */
  @Column({ type: 'varchar', length: 42 })
  wallet: string;

  /** The market's symbol (ETH is WETH). */
  @Column({ type: 'varchar', length: 16 })
  token: string;

  /** Smallest units, a decimal string (up to 2^256). */
  @Column({ type: 'varchar', length: 80 })
  amount: string;

  /** Unix seconds: the build's (and its authorization's) deadline. */
  @Column({ type: 'bigint', transformer: bigintNumber })
  deadline: number;

  @Column({ type: 'varchar', length: 80, nullable: true })
  nonce: string | null;

  @Column({ name: 'authorization_id', type: 'varchar', length: 80, nullable: true })
  authorizationId: string | null;

  @Column({ name: 'receipt_id', type: 'varchar', length: 36, nullable: true })
  receiptId: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: ReservationStatus;

  @Column({ name: 'created_ms', type: 'bigint', transformer: bigintNumber })
  createdMs: number;

  @Column({ name: 'mined_ms', type: 'bigint', nullable: true, transformer: bigintNumber })
  minedMs: number | null;
}
