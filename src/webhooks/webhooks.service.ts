import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In, LessThan } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import type { RequestMeta } from '../common/http/request-meta';
import { AppConfig } from '../config/app.config';
import { WebhooksConfig } from '../config/webhooks.config';
import type { ActivityActor, ActivityType } from '../events/activity-event';
import { ActivityLog } from '../events/activity-log';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { DELIVERY_PAGE_DEFAULT, ListDeliveriesQueryDto } from './dto/list-deliveries-query.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import type {
  CreatedWebhookResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookResponse,
} from './dto/webhook.responses';
import { WebhookAttempt } from './outbox/webhook-attempt.entity';
import { WebhookDelivery } from './outbox/webhook-delivery.entity';
import { WebhookEvent } from './outbox/webhook-event.entity';
import { WebhookOutbox } from './outbox/webhook-outbox';
import { newSigningSecret } from './secret-box';
import { checkWebhookUrl } from './ssrf/url-policy';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WEBHOOK_TEST } from './webhook-event-types';
import { WebhookSecrets } from './webhook-secrets';

/** Who asks, for the audit trail: the dashboard user and the request's origin. */
export interface WebhookCaller {
  accountId: string;
  actor: ActivityActor;
  request: RequestMeta | null;
}

/** Endpoint management (always within the caller's account: another account's id is 404). */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly activity: ActivityLog,
    private readonly outbox: WebhookOutbox,
    private readonly secrets: WebhookSecrets,
    private readonly config: WebhooksConfig,
    private readonly app: AppConfig,
  ) {}

  private get endpoints() {
    return this.dataSource.getRepository(WebhookEndpoint);
  }

  async create(caller: WebhookCaller, body: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    await this.assertUrlAllowed(body.url);
    const count = await this.endpoints.countBy({ accountId: caller.accountId });
    if (count >= this.config.maxEndpointsPerAccount)
      throw new ApiError(
        'INVALID_PARAMS',
        `An account has at most ${this.config.maxEndpointsPerAccount} webhooks`,
        { hint: 'Delete a webhook you no longer use (DELETE /api/v1/webhooks/{id}).' },
      );
    const secret = newSigningSecret();
    const endpoint = this.endpoints.create({
      id: randomUUID(),
      accountId: caller.accountId,
      url: body.url,
      description: body.description ?? null,
      events: body.events,
      active: true,
      secretSealed: this.secrets.seal(secret),
      previousSecretSealed: null,
      previousSecretUntil: null,
      failingSince: null,
      disabledReason: null,
    });
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(WebhookEndpoint).insert(endpoint);
      await this.audit(manager, caller, 'webhook.created', endpoint);
    });
    const saved = await this.find(caller.accountId, endpoint.id);
    return { ...toResponse(saved), secret };
  }

  async list(accountId: string): Promise<{ webhooks: WebhookResponse[] }> {
    const rows = await this.endpoints.find({
      where: { accountId },
      order: { createdAt: 'DESC', id: 'ASC' },
    });
    return { webhooks: rows.map(toResponse) };
  }

  async get(accountId: string, id: string): Promise<WebhookResponse> {
    return toResponse(await this.find(accountId, id));
  }

  async update(
    caller: WebhookCaller,
    id: string,
    body: UpdateWebhookDto,
  ): Promise<WebhookResponse> {
    const endpoint = await this.find(caller.accountId, id);
    if (body.url !== undefined) await this.assertUrlAllowed(body.url);
    const changes: Partial<WebhookEndpoint> = {};
    if (body.url !== undefined) changes.url = body.url;
    if (body.events !== undefined) changes.events = body.events;
    if (body.description !== undefined) changes.description = body.description;
    if (body.active !== undefined) {
      changes.active = body.active;
      // Turned on again by a person: a fresh start, the failure clock included.
      if (body.active) Object.assign(changes, { disabledReason: null, failingSince: null });
    }
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(WebhookEndpoint).update({ id }, changes);
      await this.audit(
        manager,
        caller,
        'webhook.updated',
        { ...endpoint, ...changes },
        {
          changed: Object.keys(body),
        },
      );
    });
    return this.get(caller.accountId, id);
  }

  /** Deletes the endpoint with its deliveries and their attempts. */
  async remove(caller: WebhookCaller, id: string): Promise<void> {
    const endpoint = await this.find(caller.accountId, id);
    await this.dataSource.transaction(async (manager) => {
      const deliveries = await manager
        .getRepository(WebhookDelivery)
        .find({ select: { id: true }, where: { endpointId: id } });
      const ids = deliveries.map((d) => d.id);
      for (let i = 0; i < ids.length; i += 500)
        await manager
          .getRepository(WebhookAttempt)
          .delete({ deliveryId: In(ids.slice(i, i + 500)) });
      await manager.getRepository(WebhookDelivery).delete({ endpointId: id });
      await manager.getRepository(WebhookEndpoint).delete({ id });
      await this.audit(manager, caller, 'webhook.deleted', endpoint);
    });
  }

  /**
   * A new secret; the previous one keeps signing alongside for 24 h, when it can be read: one no
   * configured key opens (a lost WEBHOOK_SECRETS_KEY) is dropped, so the new secret signs alone.
   */
  async rotateSecret(caller: WebhookCaller, id: string): Promise<CreatedWebhookResponse> {
    const endpoint = await this.find(caller.accountId, id);
    const secret = newSigningSecret();
    const previous = this.secrets.open(endpoint.secretSealed);
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(WebhookEndpoint).update(
        { id },
        {
          secretSealed: this.secrets.seal(secret),
          previousSecretSealed: previous ? this.secrets.seal(previous.plaintext) : null,
          previousSecretUntil: previous ? Date.now() + this.config.previousSecretTtlMs : null,
        },
      );
      await this.audit(manager, caller, 'webhook.updated', endpoint, { changed: ['secret'] });
    });
    return { ...toResponse(await this.find(caller.accountId, id)), secret };
  }

  /** Queues a webhook.test event to this endpoint only (listed but not sent while it is turned off). */
  async sendTest(accountId: string, id: string): Promise<{ eventId: string; deliveryId: string }> {
    const endpoint = await this.find(accountId, id);
    return this.dataSource.transaction(async (manager) => {
      const eventId = await this.outbox.enqueue(
        manager,
        {
          accountId,
          id: randomUUID(),
          at: new Date(),
          type: WEBHOOK_TEST,
          data: { webhookId: endpoint.id, message: 'A test event from the dashboard or the API' },
        },
        [endpoint.id],
      );
      const delivery = await manager
        .getRepository(WebhookDelivery)
        .findOneByOrFail({ eventId, endpointId: endpoint.id });
      return { eventId, deliveryId: delivery.id };
    });
  }

  /** The endpoint's deliveries, newest first, each with its attempts (keyset pages). */
  async deliveries(
    accountId: string,
    id: string,
    query: ListDeliveriesQueryDto,
  ): Promise<WebhookDeliveryListResponse> {
    await this.find(accountId, id);
    const limit = query.limit ?? DELIVERY_PAGE_DEFAULT;
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !cursor)
      throw new ApiError('INVALID_PARAMS', 'cursor is not a nextCursor of this list', {
        details: [{ field: 'cursor', reason: 'INVALID', message: 'is not a nextCursor' }],
      });
    const repo = this.dataSource.getRepository(WebhookDelivery);
    const where = cursor
      ? [
          { endpointId: id, createdMs: LessThan(cursor.createdMs) },
          { endpointId: id, createdMs: cursor.createdMs, id: LessThan(cursor.id) },
        ]
      : { endpointId: id };
    const rows = await repo.find({
      where,
      order: { createdMs: 'DESC', id: 'DESC' },
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const ids = page.map((row) => row.id);
    const [attempts, events] = await Promise.all([
      ids.length === 0
        ? []
        : this.dataSource
            .getRepository(WebhookAttempt)
            .find({ where: { deliveryId: In(ids) }, order: { id: 'ASC' } }),
      ids.length === 0
        ? []
        : this.dataSource
            .getRepository(WebhookEvent)
            .findBy({ id: In([...new Set(page.map((row) => row.eventId))]) }),
    ]);
    const payloads = new Map(
      events.map((e) => [e.id, JSON.parse(e.payload) as Record<string, unknown>]),
    );
    const deliveries: WebhookDeliveryResponse[] = page.map((row) => ({
      id: row.id,
      eventId: row.eventId,
      eventType: row.eventType,
      status: row.status,
      attemptCount: row.attempts,
      nextRetryAt:
        row.status === 'pending' && row.nextAttemptMs !== null ? iso(row.nextAttemptMs) : null,
      lastStatusCode: row.lastStatusCode,
      lastError: row.lastError,
      payload: payloads.get(row.eventId) ?? {},
      createdAt: iso(row.createdMs),
      deliveredAt: row.deliveredMs === null ? null : iso(row.deliveredMs),
      attempts: attempts
        .filter((a) => a.deliveryId === row.id)
        .map((a) => ({
          attempt: a.attempt,
          statusCode: a.statusCode,
          durationMs: a.durationMs,
          error: a.error,
          attemptedAt: iso(a.attemptedMs),
        })),
    }));
    const last = page[page.length - 1];
    return {
      deliveries,
      nextCursor: rows.length > limit && last ? encodeCursor(last.createdMs, last.id) : null,
    };
  }

  private async find(accountId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = /^[0-9a-f-]{36}$/i.test(id)
      ? await this.endpoints.findOneBy({ id, accountId })
      : null;
    if (!endpoint) throw webhookNotFound();
    return endpoint;
  }

  private async assertUrlAllowed(url: string): Promise<void> {
    const verdict = await checkWebhookUrl(url, {
      production: this.app.mode === 'production',
      allowedHosts: this.config.allowedHosts,
      dnsTimeoutMs: this.config.dnsTimeoutMs,
    });
    if (!verdict.ok)
      throw new ApiError(
        'WEBHOOK_URL_NOT_ALLOWED',
        `This webhook URL is not allowed: ${verdict.reason}`,
        {
          details: [{ field: 'url', reason: 'WEBHOOK_URL_NOT_ALLOWED', message: verdict.reason }],
        },
      );
  }

  private audit(
    manager: EntityManager,
    caller: WebhookCaller,
    type: ActivityType,
    endpoint: Pick<WebhookEndpoint, 'id' | 'url' | 'events'>,
    extra: Record<string, unknown> = {},
  ) {
    return this.activity.record(
      {
        accountId: caller.accountId,
        type,
        actor: caller.actor,
        target: { type: 'webhook', id: endpoint.id },
        data: { ...redactedUrl(endpoint.url), events: endpoint.events, ...extra },
        request: caller.request,
      },
      manager,
    );
  }
}

/**
 * A webhook URL as the audit trail and logs keep it: the origin (scheme://host[:port]) and the
 * first 16 hex digits of the SHA-256 of the whole URL, so a SIEM can correlate without learning a
 * token carried in the path or query (viewers and audit:read keys read the trail).
 */
export function redactedUrl(url: string): { urlOrigin: string; urlSha256: string } {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = 'invalid';
  }
  return {
    urlOrigin: origin,
    urlSha256: createHash('sha256').update(url).digest('hex').slice(0, 16),
  };
}

export function webhookNotFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No webhook with this id in your account', {
    hint: 'GET /api/v1/webhooks lists your webhooks.',
  });
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function toResponse(endpoint: WebhookEndpoint): WebhookResponse {
  const now = Date.now();
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: Array.isArray(endpoint.events) ? endpoint.events : [],
    active: endpoint.active,
    description: endpoint.description,
    disabledReason: endpoint.disabledReason,
    failingSince: endpoint.failingSince === null ? null : iso(endpoint.failingSince),
    previousSecretExpiresAt:
      endpoint.previousSecretUntil !== null && endpoint.previousSecretUntil > now
        ? iso(endpoint.previousSecretUntil)
        : null,
    createdAt: endpoint.createdAt.toISOString(),
  };
}

function encodeCursor(createdMs: number, id: string): string {
  return Buffer.from(`${createdMs}.${id}`, 'utf8').toString('base64url');
}

function decodeCursor(text: string): { createdMs: number; id: string } | undefined {
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(Buffer.from(text, 'base64url').toString());
  return match ? { createdMs: Number(match[1]), id: match[2] } : undefined;
}
