import { Logger } from '@nestjs/common';
import type { RedisConnection } from './redis-connection';

/**
 * The Redis outage policy shared by the rate limit and the monthly quota: FAIL OPEN, per
 * instance. While Redis is unreachable (or a command fails or times out) the caller's in-memory
 * fallback answers; one warning per outage, one line when Redis answers again.
 */
export class RedisFailOpen {
  private fallingBack = false;

  constructor(
    private readonly connection: RedisConnection,
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  /** True while the last answer came from memory although Redis is configured. */
  get fallingBackToMemory(): boolean {
    return this.fallingBack;
  }

  async run<T>(viaRedis: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    if (this.connection.client && this.connection.isReady) {
      try {
        const result = await viaRedis();
        this.answered();
        return result;
      } catch (err) {
        this.failed(err);
      }
    } else if (this.connection.client) {
      this.failed(new Error('not connected'));
    }
    return inMemory();
  }

  /** Redis answered for this caller (directly, or in a round trip another caller made for it). */
  answered(): void {
    if (this.fallingBack) this.logger.log(`${this.what} uses Redis again`);
    this.fallingBack = false;
  }

  private failed(err: unknown): void {
    if (!this.fallingBack) {
      this.logger.warn(
        { err: (err as Error).message },
        `${this.what} cannot reach Redis: counting in this instance only`,
      );
    }
    this.fallingBack = true;
  }
}
