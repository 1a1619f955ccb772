import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import type { RecordedActivity } from '../../events/activity-event';
import type { ActivitySink } from '../../events/activity-log';
import { WebhookEndpoint } from '../webhook-endpoint.entity';
import {
  isSubscribable,
  WEBHOOK_DISABLED,
  webhookMessageId,
  type WebhookPayload,
} from '../webhook-event-types';
import { WebhookDelivery, type DeliveryStatus } from './webhook-delivery.entity';
import { WebhookEvent } from './webhook-event.entity';

/**
 * The outbox: a subscribable activity becomes one webhook_events row and one pending delivery per
 * active endpoint of its account subscribed to its type, written with the manager of the change
 * (the same transaction), so an event is delivered if and only if its change committed.
 */
@Injectable()
export class WebhookOutbox implements ActivitySink {
  readonly name = 'webhook-outbox';
  private readonly listeners: Array<() => void> = [];

  /** Called after each write that queued deliveries (the dispatcher polls soon after). */
  onQueued(listener: () => void): void {
    this.listeners.push(listener);
  }

  async write(event: RecordedActivity, manager: EntityManager): Promise<void> {
    if (!isSubscribable(event.type)) return;
    const endpoints = (
      await manager.getRepository(WebhookEndpoint).findBy({
        accountId: event.accountId,
        active: true,
      })
    )
      // Defensive: a row whose events are not a list (null written before validation refused
      // it) must not throw inside the transaction of every change raising an event.
      .filter((endpoint) => Array.isArray(endpoint.events) && endpoint.events.includes(event.type));
    if (endpoints.length === 0) return;
    await this.enqueue(
      manager,
      {
        accountId: event.accountId,
        id: event.id,
        at: event.at,
        type: event.type,
        data: payloadData(event),
      },
      endpoints.map((endpoint) => endpoint.id),
    );
  }

  /**
   * Writes an event and one delivery per endpoint (status `pending`, due now, or `notice` for a
   * row that is listed but never sent). Returns the event id.
   */
  async enqueue(
    manager: EntityManager,
    event: {
      accountId: string;
      id: string;
      at: Date;
      type: string;
      data: Record<string, unknown>;
    },
    endpointIds: string[],
    status: Extract<DeliveryStatus, 'pending' | 'notice'> = 'pending',
  ): Promise<string> {
    const messageId = webhookMessageId(event.id);
    const payload: WebhookPayload = {
      type: event.type,
      id: messageId,
      createdAt: event.at.toISOString(),
      data: event.data,
    };
    const now = event.at.getTime();
    await manager.getRepository(WebhookEvent).insert({
      id: messageId,
      accountId: event.accountId,
      type: event.type,
      payload: JSON.stringify(payload),
      createdMs: now,
    });
    await manager.getRepository(WebhookDelivery).insert(
      endpointIds.map((endpointId) => ({
        id: randomUUID(),
        endpointId,
        eventId: messageId,
        eventType: event.type,
        status,
        attempts: 0,
        nextAttemptMs: status === 'pending' ? now : null,
        leaseUntilMs: null,
        lastStatusCode: null,
        lastError: null,
        createdMs: now,
        deliveredMs: null,
      })),
    );
    if (status === 'pending') this.notify();
    return messageId;
  }

  /** The `webhook.disabled` row of an endpoint the service turned off (listed, not sent). */
  recordDisabled(manager: EntityManager, endpoint: WebhookEndpoint, reason: string) {
    return this.enqueue(
      manager,
      {
        accountId: endpoint.accountId,
        id: randomUUID(),
        at: new Date(),
        type: WEBHOOK_DISABLED,
        data: { webhookId: endpoint.id, url: endpoint.url, reason },
      },
      [endpoint.id],
      'notice',
    );
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The event's data, with the id of what it is about (apiKeyId, walletAddress, txHash, ...). */
function payloadData(event: RecordedActivity): Record<string, unknown> {
  const target = event.target ? { [targetKey(event.target.type)]: event.target.id } : {};
  return { ...target, ...(event.data ?? {}) };
}

function targetKey(type: string): string {
  if (type === 'wallet' || type === 'session') return 'walletAddress';
  if (type === 'transaction') return 'txHash';
  return `${type.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())}Id`;
}
