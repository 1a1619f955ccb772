import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withTimeout } from '../common/scheduling/with-timeout';

/** A scrape waits this long at most for one collector (a chain or database read). */
const COLLECT_TIMEOUT_MS = 2_000;

/** A reading taken when Prometheus scrapes (queue depth, head age); it sets its own gauges. */
export type ScrapeCollector = () => Promise<void>;

/**
 * Every `cgk_` metric (names fixed by design.md §9), in one registry. Features own the readings:
 * they set these from where the cause lives (the attester's timer, the RPC failover, the Redis
 * fail-open policy) or register a collector run on each scrape (webhook backlog, chain head age).
 */
@Injectable()
export class Metrics {
  private readonly logger = new Logger('Metrics');
  readonly registry = new Registry();
  private readonly collectors: Array<{ name: string; collect: ScrapeCollector }> = [];

  readonly httpRequests = new Counter({
    name: 'cgk_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method, status and auth method (api_key, jwt, none)',
    labelNames: ['route', 'method', 'status', 'auth_method'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'cgk_http_request_duration_seconds',
    help: 'HTTP request latency, from the first byte read to the last byte written',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly inFlight = this.gauge(
    'cgk_http_in_flight_requests',
    'HTTP requests started and not yet answered',
  );
  readonly attesterBalanceWei = this.gauge(
    'cgk_attester_balance_wei',
    "The attester's balance in wei (a float: exact to about 1e-9 ETH at 10 ETH), read every ATTESTER_BALANCE_CHECK_MS",
  );
  readonly attesterLowBalance = this.gauge(
    'cgk_attester_low_balance',
    '1 while the attester balance is below ATTESTER_LOW_BALANCE_ETH',
  );
  readonly attesterLowBalanceThresholdWei = this.gauge(
    'cgk_attester_low_balance_threshold_wei',
    'ATTESTER_LOW_BALANCE_ETH in wei',
  );
  readonly attesterPending = this.gauge(
    'cgk_attester_pending_transactions',
    "The attester key's sent and unmined transactions on the node (every instance's)",
  );
  readonly webhookQueueDepth = this.gauge(
    'cgk_webhook_queue_depth',
    'Webhook deliveries not yet delivered nor given up (pending, due now or later)',
  );
  readonly webhookOldestDueAge = this.gauge(
    'cgk_webhook_oldest_due_age_seconds',
    'How long the oldest pending webhook delivery has waited since it first fell due (0 when none)',
  );
  readonly chainHeadAge = this.gauge(
    'cgk_chain_head_age_seconds',
    "Wall-clock seconds since the latest block's timestamp (absent while the RPC does not answer)",
  );
  readonly rpcErrors = new Counter({
    name: 'cgk_rpc_errors_total',
    help: 'Chain RPC provider failures (transport, HTTP 429/5xx, JSON-RPC rate limits) by RPC URL (scheme://host[:port])',
    labelNames: ['url'] as const,
    registers: [this.registry],
  });
  readonly redisFailOpen = this.gauge(
    'cgk_redis_fail_open',
    '1 while a Redis-backed store (rate_limit, quota) counts in this instance only because Redis does not answer',
    ['store'],
  );

  /** A gauge in this registry: most readings are one number, set where the cause lives. */
  private gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []) {
    return new Gauge<L>({ name, help, labelNames, registers: [this.registry] });
  }

  /** Runs `collect` before each scrape renders; a failing or slow one leaves its gauges as they were. */
  onScrape(name: string, collect: ScrapeCollector): void {
    this.collectors.push({ name, collect });
  }

  /** The text exposition format, after every collector has run (in parallel). */
  async render(): Promise<string> {
    await Promise.all(
      this.collectors.map(({ name, collect }) =>
        withTimeout(collect(), COLLECT_TIMEOUT_MS).catch((error: unknown) =>
          this.logger.debug({ collector: name, err: (error as Error).message }, 'collector failed'),
        ),
      ),
    );
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
