import { randomUUID } from 'node:crypto';
import type { DataSource, Repository } from 'typeorm';
import type { ActivityActor } from '../../events/activity-event';
import type { SessionRevocationReason } from './attester.service';
import { OwedRevocation } from './owed-revocation.entity';

/** What the metrics and readiness say about the revocations owed (every instance's: one table). */
export interface OwedRevocationStats {
  pending: number;
  /** The oldest pending revocation's first request; null when none is owed. */
  oldestRequestedAt: Date | null;
}

/**
 * The ledger of session revocations the service owes (compliance_revocations): a row is written
 * before the transaction is sent and settled once it is mined, so no revocation is lost to an
 * unfunded attester, an RPC outage or a crash between the decision and the send.
 */
export class OwedRevocations {
  private readonly rows: Repository<OwedRevocation>;

  constructor(dataSource: DataSource) {
    this.rows = dataSource.getRepository(OwedRevocation);
  }

  /**
   * The wallet's pending revocation, written now when none is pending (one per wallet: a second
   * request joins the first, keeping its reason and age).
   */
  async owe(
    walletAddress: string,
    reason: SessionRevocationReason,
    actor: ActivityActor,
  ): Promise<OwedRevocation> {
    // Twice at most: a pending row settled by another sender between the two statements.
    for (let attempt = 0; attempt < 2; attempt++) {
      await this.rows
        .createQueryBuilder()
        .insert()
        .into(OwedRevocation)
        .values({
          id: randomUUID(),
          walletAddress,
          reason,
          actorType: actor.type,
          actorId: actor.id?.slice(0, 64) ?? null,
          status: 'pending',
          requestedAt: new Date(),
          attempts: 0,
        })
        .orIgnore()
        .execute();
      const row = await this.rows.findOneBy({ walletAddress, status: 'pending' });
      if (row) return row;
    }
    throw new Error(`the revocation of ${walletAddress} could not be recorded`);
  }

  /** Pending revocations, oldest first. */
  pending(limit: number): Promise<OwedRevocation[]> {
    return this.rows.find({
      where: { status: 'pending' },
      order: { requestedAt: 'ASC' },
      take: limit,
    });
  }

  /** Marks it mined; false when another sender had settled it already (record nothing twice). */
  async settle(id: string, mined: { txHash: string; minedBy: string }): Promise<boolean> {
    const result = await this.rows
      .createQueryBuilder()
      .update(OwedRevocation)
      .set({
        status: 'mined',
        txHash: mined.txHash,
        minedBy: mined.minedBy,
        minedAt: new Date(),
        lastError: null,
      })
      .where('id = :id AND status = :pending', { id, pending: 'pending' })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Records a failed send and why it waits; answers the attempts so far. */
  async failed(row: OwedRevocation, why: string): Promise<number> {
    const attempts = row.attempts + 1;
    await this.rows.update(
      { id: row.id, status: 'pending' },
      { attempts, lastAttemptAt: new Date(), lastError: why.slice(0, 300) },
    );
    row.attempts = attempts;
    return attempts;
  }

  async stats(): Promise<OwedRevocationStats> {
    const [pending, oldest] = await Promise.all([
      this.rows.countBy({ status: 'pending' }),
      this.rows.findOne({ where: { status: 'pending' }, order: { requestedAt: 'ASC' } }),
    ]);
    return { pending, oldestRequestedAt: oldest?.requestedAt ?? null };
  }
}
