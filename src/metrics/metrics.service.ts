import { Injectable, Logger } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withTimeout } from '../common/scheduling/with-timeout';

/** A scrape waits this long at most for one collector (a chain or database read). */
const COLLECT_TIMEOUT_MS = 2_000;

let processRegistry: Registry | undefined;

/**
 * The runtime's standard metrics, unprefixed as every Node.js dashboard expects them:
 * process_cpu_seconds_total, process_resident_memory_bytes, process_start_time_seconds,
 * nodejs_eventloop_lag_seconds (and p50/p90/p99), nodejs_gc_duration_seconds, nodejs_heap_*,
 * nodejs_active_handles, ... (prom-client's collectDefaultMetrics). Once per process: they
 * describe the process, and their event-loop monitor must not be started again by every app a
 * process boots (the test suites boot many).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

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
  // Issue 58: compliance that never fails silently (names: design.md §10).
  readonly attesterCanPay = this.gauge(
    'cgk_attester_can_pay',
    "1 while the attester's balance pays one registry transaction at the next block's fees, by role (primary, standby)",
    ['role'],
  );
  readonly attesterFailovers = new Counter({
    name: 'cgk_attester_failovers_total',
    help: 'Registry transactions the standby attester sent because the primary could not pay (insufficient_funds) or was refused, by reason and operation',
    labelNames: ['reason', 'operation'] as const,
    registers: [this.registry],
  });
  readonly revocationsPending = this.gauge(
    'cgk_compliance_revocations_pending',
    'Session revocations the service owes and has not seen mined (every instance: one table; 0 when none)',
  );
  readonly revocationsOldestAge = this.gauge(
    'cgk_compliance_revocations_oldest_age_seconds',
    'How long the oldest owed session revocation has waited since the service first owed it (0 when none)',
  );
  readonly screeningLastSuccess = this.gauge(
    'cgk_screening_last_success_timestamp_seconds',
    "Unix time of this instance's last complete screening pass (absent until the first one; with several instances one screens per interval: take the max)",
  );
  readonly screeningInterval = this.gauge(
    'cgk_screening_interval_seconds',
    'SCREENING_INTERVAL_MS in seconds (0: screening off), for the freshness alert',
  );
  readonly databasePoolConnections = this.gauge(
    'cgk_database_pool_connections',
    'PostgreSQL pool connections by state (in_use, idle); absent on SQLite (no pool)',
    ['state'],
  );
  readonly databasePoolWaiting = this.gauge(
    'cgk_database_pool_waiting',
    'Queries waiting for a PostgreSQL pool connection (above 0 for long: the pool is the bottleneck)',
  );
  readonly databasePoolMax = this.gauge(
    'cgk_database_pool_max',
    'The PostgreSQL pool size (its most connections); 0 on SQLite (no pool)',
  );
  readonly webhookQueueDepth = this.gauge(
    'cgk_webhook_queue_depth',
    'Webhook deliveries not yet delivered nor given up (pending, due now or later)',
  );
  readonly webhookOldestDueAge = this.gauge(
    'cgk_webhook_oldest_due_age_seconds',
    'How long the oldest pending webhook delivery has waited since it first fell due (0 when none)',
  );
  readonly webhookAttempts = new Counter({
    name: 'cgk_webhook_attempts_total',
    help: 'Webhook delivery attempts by result: delivered (2xx) or failed (anything else; retried on the schedule)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly webhookGivenUp = new Counter({
    name: 'cgk_webhook_deliveries_given_up_total',
    help: 'Webhook deliveries failed for good (the retry schedule used up)',
    registers: [this.registry],
  });
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
    return `${await processMetrics().metrics()}\n${await this.registry.metrics()}`;
  }

  /** Every metric a scrape shows: the process's and the service's (for the alert rules' check). */
  async names(): Promise<string[]> {
    const all = [processMetrics(), this.registry];
    return (await Promise.all(all.map((r) => r.getMetricsAsJSON()))).flat().map((m) => m.name);
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
