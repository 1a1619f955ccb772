import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import Redis from 'ioredis';
import { RedisConfig, redisClientOptions } from '../../config/redis.config';
import { ReadinessRegistry } from '../../health/readiness.registry';

/**
 * The Redis client of the rate limiter (REDIS_URL), or none. Tuned never to hold a request: no
 * offline queue (commands fail at once while disconnected), short connect and command timeouts,
 * reconnection in the background. Readiness shows it "degraded" while down (see the outage policy).
 */
@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RedisConnection.name);
  readonly client: Redis | undefined;
  private lastError?: string;

  constructor(
    private readonly config: RedisConfig,
    private readonly readiness: ReadinessRegistry,
  ) {
    if (!config.url) return;
    this.client = new Redis(config.url, redisClientOptions(config));
    this.client.on('error', (err: Error) => this.onError(err));
    this.client.on('ready', () => {
      if (this.lastError) this.logger.log('Redis is back: rate limits are shared again');
      this.lastError = undefined;
    });
  }

  get isReady(): boolean {
    return this.client?.status === 'ready';
  }

  /** Waits up to the connect timeout at boot; an unreachable Redis does not stop the service. */
  async onModuleInit(): Promise<void> {
    if (!this.client) return;
    this.readiness.register(() => this.readinessCheck());
    const connected = await this.client.connect().then(
      () => true,
      () => false,
    );
    if (!connected) {
      this.logger.warn(
        'Redis unreachable at start: rate limits are per instance (memory) until it answers',
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.client) return;
    if (this.client.status === 'ready')
      await this.client.quit().catch(() => this.client!.disconnect());
    else this.client.disconnect();
  }

  private async readinessCheck(): Promise<HealthIndicatorResult> {
    try {
      if (!this.isReady) throw new Error(this.lastError ?? 'not connected');
      await this.client!.ping();
      return { redis: { status: 'up' } };
    } catch (err) {
      return {
        redis: {
          status: 'degraded',
          message: `Redis unavailable (${(err as Error).message}); rate limits are enforced per instance until it returns`,
        },
      };
    }
  }

  private onError(err: Error): void {
    // One line per outage, not one per reconnection attempt.
    if (this.lastError === undefined)
      this.logger.warn(
        { err: err.message },
        'Redis error: falling back to per-instance rate limits',
      );
    this.lastError = err.message || err.name;
  }
}
