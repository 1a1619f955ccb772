import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThan, Not } from 'typeorm';
import { placeholders } from '../../common/database/placeholders';
import { WebhookAttempt } from '../outbox/webhook-attempt.entity';
import { WebhookDelivery } from '../outbox/webhook-delivery.entity';
import { WebhookEvent } from '../outbox/webhook-event.entity';
import { WebhookEndpoint } from '../webhook-endpoint.entity';

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  event: WebhookEvent;
  endpoint: WebhookEndpoint | null;
}

export interface AttemptRecord {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  attemptedMs: number;
  /** Unix ms of the next attempt; undefined when none (delivered, or the schedule is used up). */
  nextAttemptMs?: number;
}

/**
 * The dispatcher's database side. A claim moves due deliveries' next_attempt_ms one lease ahead in
 * a short transaction (PostgreSQL: FOR UPDATE SKIP LOCKED, so replicas claim disjoint rows): if
 * this instance dies before recording, the rows fall due again after the lease and another
 * instance sends them, with the same webhook-id.
 */
@Injectable()
export class DeliveryStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  get postgres(): boolean {
    return this.dataSource.options.type === 'postgres';
  }

  /** Deliveries still to deliver (pending), and when the oldest of them was first due (unix ms). */
  async backlog(): Promise<{ depth: number; oldestCreatedMs: number | null }> {
    const [row] = (await this.dataSource.query(
      `SELECT COUNT(*) AS depth, MIN(created_ms) AS oldest FROM webhook_deliveries WHERE status = 'pending'`,
    )) as Array<{ depth: string | number; oldest: string | number | null }>;
    return {
      depth: Number(row.depth),
      oldestCreatedMs: row.oldest === null ? null : Number(row.oldest),
    };
  }

  /**
   * Claims up to `limit` due deliveries. With `cap`, at most `cap.perEndpoint` per endpoint counting
   * the `cap.inFlight` ones this instance is still sending (endpoints at their cap are skipped, so a
   * slow endpoint's backlog does not fill the claim).
   */
  async claimDue(
    nowMs: number,
    limit: number,
    leaseMs: number,
    cap?: { perEndpoint: number; inFlight: ReadonlyMap<string, number> },
  ): Promise<ClaimedDelivery[]> {
    const leaseUntil = nowMs + leaseMs;
    const full = cap
      ? [...cap.inFlight].filter(([, n]) => n >= cap.perEndpoint).map(([id]) => id)
      : [];
    const claimed = await this.dataSource.transaction(async (manager) => {
      const mark = placeholders(manager);
      const params: unknown[] = [];
      const skip =
        full.length > 0
          ? ` AND endpoint_id NOT IN (${full.map((id) => mark(params, id)).join(', ')})`
          : '';
      const rows = (await manager.query(
        `SELECT id, endpoint_id FROM webhook_deliveries
          WHERE status = 'pending' AND next_attempt_ms <= ${mark(params, nowMs)}${skip}
          ORDER BY next_attempt_ms LIMIT ${mark(params, cap ? limit * 4 : limit)}` +
          (this.postgres ? ' FOR UPDATE SKIP LOCKED' : ''),
        params,
      )) as Array<{ id: string; endpoint_id: string }>;
      const taken = new Map(cap?.inFlight ?? []);
      const ids: string[] = [];
      for (const row of rows) {
        if (ids.length >= limit) break;
        const endpointId = String(row.endpoint_id);
        const n = taken.get(endpointId) ?? 0;
        if (cap && n >= cap.perEndpoint) continue;
        taken.set(endpointId, n + 1);
        ids.push(String(row.id));
      }
      if (ids.length === 0) return [];
      await manager
        .getRepository(WebhookDelivery)
        .update({ id: In(ids) }, { nextAttemptMs: leaseUntil, leaseUntilMs: leaseUntil });
      return manager.getRepository(WebhookDelivery).findBy({ id: In(ids) });
    });
    if (claimed.length === 0) return [];
    const [events, endpoints] = await Promise.all([
      this.dataSource
        .getRepository(WebhookEvent)
        .findBy({ id: In([...new Set(claimed.map((d) => d.eventId))]) }),
      this.dataSource
        .getRepository(WebhookEndpoint)
        .findBy({ id: In([...new Set(claimed.map((d) => d.endpointId))]) }),
    ]);
    const eventById = new Map(events.map((e) => [e.id, e]));
    const endpointById = new Map(endpoints.map((e) => [e.id, e]));
    return claimed
      .filter((delivery) => eventById.has(delivery.eventId))
      .map((delivery) => ({
        delivery,
        event: eventById.get(delivery.eventId)!,
        endpoint: endpointById.get(delivery.endpointId) ?? null,
      }));
  }

  /**
   * Records one attempt and moves the delivery on, only if it is still this claim's (attempts and
   * lease unchanged: a claim that outlived its lease and was re-claimed elsewhere records nothing).
   * Returns false when the claim was lost.
   */
  recordAttempt(
    claimed: WebhookDelivery,
    attempt: AttemptRecord,
    then: (manager: EntityManager) => Promise<void> = async () => undefined,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const delivered = attempt.error === null;
      const attempts = claimed.attempts + 1;
      const result = await manager.getRepository(WebhookDelivery).update(
        { id: claimed.id, attempts: claimed.attempts, leaseUntilMs: claimed.leaseUntilMs! },
        {
          attempts,
          status: delivered
            ? 'delivered'
            : attempt.nextAttemptMs === undefined
              ? 'failed'
              : 'pending',
          nextAttemptMs: delivered ? null : (attempt.nextAttemptMs ?? null),
          leaseUntilMs: null,
          lastStatusCode: attempt.statusCode,
          lastError: attempt.error,
          deliveredMs: delivered ? attempt.attemptedMs : null,
        },
      );
      if (result.affected !== 1) return false;
      await manager.getRepository(WebhookAttempt).insert({
        deliveryId: claimed.id,
        attempt: attempts,
        statusCode: attempt.statusCode,
        durationMs: attempt.durationMs,
        error: attempt.error,
        attemptedMs: attempt.attemptedMs,
      });
      await then(manager);
      return true;
    });
  }

  /**
   * Deletes settled deliveries (and their attempts) created before `beforeMs`, `batch` at a time,
   * then the events no delivery refers to any more. Returns the deliveries deleted.
   */
  async pruneSettled(beforeMs: number, batch: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const rows = await this.dataSource.getRepository(WebhookDelivery).find({
        select: { id: true },
        where: { status: Not('pending'), createdMs: LessThan(beforeMs) },
        take: batch,
      });
      if (rows.length === 0) break;
      const ids = rows.map((row) => row.id);
      await this.dataSource.transaction(async (manager) => {
        await manager.getRepository(WebhookAttempt).delete({ deliveryId: In(ids) });
        await manager.getRepository(WebhookDelivery).delete({ id: In(ids) });
      });
      deleted += ids.length;
      if (rows.length < batch) break;
    }
    const mark = placeholders(this.dataSource.manager);
    const params: unknown[] = [];
    await this.dataSource.query(
      `DELETE FROM webhook_events WHERE created_ms < ${mark(params, beforeMs)}
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
      params,
    );
    return deleted;
  }

  /** A delivery that will not be sent (its endpoint was disabled or deleted). */
  async abandon(claimed: WebhookDelivery, reason: string): Promise<void> {
    await this.dataSource
      .getRepository(WebhookDelivery)
      .update(
        { id: claimed.id, attempts: claimed.attempts },
        { status: 'failed', nextAttemptMs: null, leaseUntilMs: null, lastError: reason },
      );
  }
}
