import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { AppConfig } from '../../config/app.config';
import { ShutdownReport } from '../../lifecycle/shutdown-report';
import { Metrics } from '../../metrics/metrics.service';
import { WebhooksConfig } from '../../config/webhooks.config';
import { WebhookOutbox } from '../outbox/webhook-outbox';
import { checkWebhookUrl } from '../ssrf/url-policy';
import { WebhookEndpoint } from '../webhook-endpoint.entity';
import { WebhookSecrets } from '../webhook-secrets';
import { ClaimedDelivery, DeliveryStore } from './delivery-store';
import { nextRetryAt } from './retry-policy';
import { signedHeaders } from './signature';
import { sendWebhook, SendOutcome } from './webhook-sender';

const PRUNE_INTERVAL_MS = 3_600_000;
/** Deliveries in flight per endpoint per instance at most: a slow endpoint holds only these. */
const PER_ENDPOINT_IN_FLIGHT = 4;

/**
 * Sends due deliveries: every WEBHOOK_POLL_INTERVAL_MS, and soon after this instance queues one.
 * Each instance claims its own rows (DeliveryStore), sends them concurrently (DNS bounded by
 * WEBHOOK_DNS_TIMEOUT_MS, then a WEBHOOK_TIMEOUT_MS POST, no redirects, to the addresses the SSRF
 * check resolved), and records each attempt. Each delivery settles on its own: a round claims
 * while up to WEBHOOK_BATCH_SIZE are in flight (at most 4 per endpoint), so a slow endpoint holds its own slots, not the others' round. Shutdown stops the
 * timer and waits for the deliveries in flight (bounded by the DNS and send timeouts).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private timer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private pruning?: Promise<unknown>;
  private round?: Promise<number>;
  /** Deliveries being sent, and how many per endpoint id. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly inFlightPerEndpoint = new Map<string, number>();
  /** The last claim took rows (or found no room): look again as soon as a delivery settles. */
  private starved = false;
  private again = false;
  private soon = false;
  private stopped = false;

  constructor(
    private readonly store: DeliveryStore,
    private readonly outbox: WebhookOutbox,
    private readonly secrets: WebhookSecrets,
    private readonly config: WebhooksConfig,
    private readonly app: AppConfig,
    @Optional() private readonly report?: ShutdownReport,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.outbox.onQueued(() => this.nudge());
    this.schedule(this.config.pollIntervalMs);
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_INTERVAL_MS);
    this.pruneTimer.unref();
  }

  /** Drops settled deliveries older than WEBHOOK_RETENTION_DAYS (the timer's job; tests call it). */
  prune(now = Date.now()): Promise<unknown> {
    this.pruning ??= this.store
      .pruneSettled(now - this.config.retentionDays * 86_400_000, 500)
      .catch((err: unknown) =>
        this.logger.warn({ err: (err as Error).message }, 'Webhook retention sweep failed'),
      )
      .finally(() => (this.pruning = undefined));
    return this.pruning;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pruneTimer);
    await this.round;
    const inFlight = this.inFlight.size;
    await Promise.all([...this.inFlight]);
    await this.pruning;
    this.report?.note(
      'webhookDeliveries',
      inFlight,
      `${inFlight} webhook delivery attempt(s) in flight finished`,
    );
  }

  /** A delivery was queued here: look soon (after the writing transaction has committed). */
  nudge(): void {
    if (this.stopped) return;
    if (this.round) {
      this.again = true;
      return;
    }
    if (this.soon) return;
    this.soon = true;
    this.schedule(25);
  }

  /** One claim round now, then its deliveries settled; resolves to the deliveries it claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.claimRound();
    await Promise.all([...this.inFlight]);
    return claimed;
  }

  /** Claims what is due (up to the room left) and starts sending; resolves once claimed. */
  private claimRound(): Promise<number> {
    if (this.round) {
      this.again = true;
      return this.round;
    }
    this.round = this.sendDue()
      .catch((err: unknown) => {
        this.logger.warn({ err: (err as Error).message }, 'Webhook round failed; next one retries');
        return 0;
      })
      .finally(() => {
        this.round = undefined;
      });
    return this.round;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.soon = false;
      void this.claimRound().then(() => {
        const more = this.again;
        this.again = false;
        this.schedule(more ? 0 : this.config.pollIntervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async sendDue(): Promise<number> {
    const room = this.config.batchSize - this.inFlight.size;
    this.starved = room <= 0;
    if (room <= 0) return 0;
    const claimed = await this.store.claimDue(Date.now(), room, this.config.leaseMs, {
      perEndpoint: PER_ENDPOINT_IN_FLIGHT,
      inFlight: this.inFlightPerEndpoint,
    });
    // A claim may have left due rows behind (the room, or an endpoint's cap): look again when one
    // of these settles, besides the poll.
    this.starved = claimed.length > 0;
    for (const item of claimed) this.start(item);
    return claimed.length;
  }

  /** Sends one delivery on its own; when it settles, its slot is free for the next claim. */
  private start(item: ClaimedDelivery): void {
    const endpointId = item.delivery.endpointId;
    this.inFlightPerEndpoint.set(endpointId, (this.inFlightPerEndpoint.get(endpointId) ?? 0) + 1);
    const task: Promise<void> = this.deliver(item)
      .catch((err: unknown) =>
        this.logger.warn(
          { err: (err as Error).message, deliveryId: item.delivery.id },
          'Webhook delivery not recorded; it falls due again after the lease',
        ),
      )
      .finally(() => {
        this.inFlight.delete(task);
        const left = (this.inFlightPerEndpoint.get(endpointId) ?? 1) - 1;
        if (left > 0) this.inFlightPerEndpoint.set(endpointId, left);
        else this.inFlightPerEndpoint.delete(endpointId);
        if (this.starved) {
          this.starved = false;
          this.nudge();
        }
      });
    this.inFlight.add(task);
  }

  private async deliver({ delivery, event, endpoint }: ClaimedDelivery): Promise<void> {
    if (!endpoint || !endpoint.active) {
      await this.store.abandon(delivery, endpoint ? 'endpoint disabled' : 'endpoint deleted');
      return;
    }
    const outcome = await this.attempt(endpoint, event.id, event.payload).catch(
      (err: unknown): SendOutcome => {
        // e.g. a secret sealed under another server key: an attempt that failed, not a lost claim.
        this.logger.error({ err: (err as Error).message, webhookId: event.id }, 'Webhook not sent');
        return { statusCode: null, durationMs: 0, error: 'internal error: not sent' };
      },
    );
    const now = Date.now();
    const nextAttemptMs =
      outcome.error === null
        ? undefined
        : nextRetryAt(delivery.attempts + 1, this.config.retryScheduleMs, now);
    const recorded = await this.store.recordAttempt(
      delivery,
      { ...outcome, attemptedMs: now - outcome.durationMs, nextAttemptMs },
      (manager) => this.updateHealth(manager, endpoint, outcome.error === null, now),
    );
    if (!recorded)
      this.logger.warn(
        { deliveryId: delivery.id, webhookId: event.id },
        'A webhook attempt outlived its lease; another instance had claimed it',
      );
    this.metrics?.webhookAttempts.inc({ result: outcome.error === null ? 'delivered' : 'failed' });
    if (outcome.error !== null && nextAttemptMs === undefined) this.metrics?.webhookGivenUp.inc();
    if (outcome.error !== null) {
      // Each failed attempt, for the runbook's "read the failed deliveries" (issue 58).
      const next = nextAttemptMs === undefined ? null : new Date(nextAttemptMs).toISOString();
      this.logger.warn(
        {
          event: 'webhook.attempt.failed',
          endpointId: endpoint.id,
          deliveryId: delivery.id,
          webhookId: event.id,
          attempt: delivery.attempts + 1,
          status: outcome.statusCode,
          error: outcome.error,
          nextAttemptAt: next,
        },
        `webhook delivery ${delivery.id} to endpoint ${endpoint.id} failed (attempt ${delivery.attempts + 1}: ${outcome.statusCode ?? outcome.error}); ${next ? `next attempt at ${next}` : 'no attempt left: the delivery failed'}`,
      );
    }
  }

  /** The SSRF check after DNS, then one signed POST to the checked addresses. */
  private async attempt(
    endpoint: WebhookEndpoint,
    messageId: string,
    body: string,
  ): Promise<SendOutcome> {
    const verdict = await checkWebhookUrl(endpoint.url, {
      production: this.app.mode === 'production',
      allowedHosts: this.config.allowedHosts,
      dnsTimeoutMs: this.config.dnsTimeoutMs,
    });
    if (!verdict.ok)
      return { statusCode: null, durationMs: 0, error: `refused: ${verdict.reason}` };
    return sendWebhook({
      url: endpoint.url,
      addresses: verdict.addresses,
      headers: signedHeaders(messageId, new Date(), body, this.secrets.signingSecrets(endpoint)),
      body,
      timeoutMs: this.config.timeoutMs,
    });
  }

  /**
   * A success clears failingSince; a failure starts it. Failing for WEBHOOK_DISABLE_AFTER_SECONDS
   * disables the endpoint (once: the conditional UPDATE) and lists a webhook.disabled row.
   */
  private async updateHealth(
    manager: EntityManager,
    endpoint: WebhookEndpoint,
    ok: boolean,
    now: number,
  ): Promise<void> {
    const endpoints = manager.getRepository(WebhookEndpoint);
    if (ok) {
      if (endpoint.failingSince !== null)
        await endpoints.update({ id: endpoint.id }, { failingSince: null });
      return;
    }
    if (endpoint.failingSince === null) {
      await endpoints.update({ id: endpoint.id, failingSince: IsNull() }, { failingSince: now });
      return;
    }
    if (now - endpoint.failingSince < this.config.disableAfterMs) return;
    const hours = Math.round(this.config.disableAfterMs / 3_600_000);
    const reason = `every delivery failed for ${hours} h (since ${new Date(endpoint.failingSince).toISOString()})`;
    const result = await endpoints.update(
      { id: endpoint.id, active: true },
      { active: false, disabledReason: reason },
    );
    if (result.affected === 1) await this.outbox.recordDisabled(manager, endpoint, reason);
  }
}
