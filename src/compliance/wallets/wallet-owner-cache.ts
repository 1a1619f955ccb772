import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { RedisConfig, redisClientOptions } from '../../config/redis.config';

/** How long an instance trusts an owner it read, should a change ever not reach it. */
export const WALLET_OWNER_CACHE_MS = 5_000;
/** How soon a SUBSCRIBE that failed on a live connection is sent again. */
const RESUBSCRIBE_MS = 1_000;
/** Wallets held at most (cleared when full, like the API-key cache). */
const CACHED_WALLETS_MAX = 10_000;

/**
 * Which account each wallet is bound to (or none), as this instance last read it: every build asks
 * (spec §4 rule 5), and on PostgreSQL that was the one query of a swap build, a round trip that
 * made the production path dearer than the embedded one (bench/build-cost.md, issue 59).
 *
 * Only with Redis, where every instance hears of every change at once: a bind that changes an
 * owner publishes the wallet on `<REDIS_KEY_PREFIX>wallet-owner` after its write, and each
 * instance drops it when the message arrives. While this instance is not subscribed (no Redis,
 * Redis down, reconnecting) nothing is cached and every build reads the database, as before: a
 * PostgreSQL deployment without Redis may run several instances that would not hear of a change.
 * SQLite reads cost microseconds and need no cache.
 *
 * A read that a change overtakes is not kept (the epoch moved while it was in flight), and an
 * entry lives WALLET_OWNER_CACHE_MS at most, so a message lost in a reconnection costs at most
 * that long.
 */
@Injectable()
export class WalletOwnerCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(WalletOwnerCache.name);
  private readonly owners = new Map<string, { owner: string | null; until: number }>();
  /** Moves with every change heard of: a read started before it is not kept. */
  private epoch = 0;
  private subscribed = false;
  private readonly channel: string;
  private readonly subscriber?: Redis;
  private readonly publisher?: Redis;

  constructor(config: RedisConfig) {
    this.channel = `${config.keyPrefix}wallet-owner`;
    if (!config.url) return;
    const options = redisClientOptions(config);
    this.subscriber = new Redis(config.url, { ...options, autoResubscribe: false });
    this.publisher = new Redis(config.url, options);
    this.subscriber.on('message', (channel: string, wallet: string) => {
      if (channel === this.channel) this.forget(wallet);
    });
    this.subscriber.on('ready', () => void this.subscribe());
    this.subscriber.on('close', () => this.stop('the Redis connection closed'));
    // Errors are the rate limiter's to report (RedisConnection); here they only stop the cache.
    this.subscriber.on('error', () => undefined);
    this.publisher.on('error', () => undefined);
  }

  /** Whether owners are kept now (subscribed to the changes of every instance). */
  get active(): boolean {
    return this.subscribed;
  }

  async onModuleInit(): Promise<void> {
    // A Redis that is down at start only leaves the cache off until it answers.
    await Promise.all([
      this.subscriber?.connect().catch(() => undefined),
      this.publisher?.connect().catch(() => undefined),
    ]);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stop();
    await Promise.all([close(this.subscriber), close(this.publisher)]);
  }

  /** The owner of `wallet` (checksummed), from the cache while active, else from `read`. */
  async ownerOf(wallet: string, read: () => Promise<string | null>): Promise<string | null> {
    if (!this.subscribed) return read();
    const now = Date.now();
    const cached = this.owners.get(wallet);
    if (cached && cached.until > now) return cached.owner;
    const epoch = this.epoch;
    const owner = await read();
    if (this.subscribed && epoch === this.epoch) {
      if (this.owners.size >= CACHED_WALLETS_MAX) this.owners.clear();
      this.owners.set(wallet, { owner, until: now + WALLET_OWNER_CACHE_MS });
    }
    return owner;
  }

  /**
   * After a change of `wallet`'s owner is written: forgotten here at once, and by every other
   * instance when the message reaches it (a publish that fails is logged; the others then keep
   * the old owner WALLET_OWNER_CACHE_MS at most).
   */
  async changed(wallet: string): Promise<void> {
    this.forget(wallet);
    if (!this.publisher) return;
    await this.publisher.publish(this.channel, wallet).catch((err: unknown) => {
      this.logger.warn(
        { wallet, err: (err as Error).message },
        `Could not tell other instances of a wallet binding: they may answer with the old owner for up to ${WALLET_OWNER_CACHE_MS} ms`,
      );
    });
  }

  private forget(wallet: string): void {
    this.owners.delete(wallet);
    this.epoch += 1;
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber!.subscribe(this.channel);
      // What was cached before a disconnection may have missed changes meanwhile.
      this.owners.clear();
      this.epoch += 1;
      this.subscribed = true;
    } catch (err) {
      this.stop((err as Error).message);
      // A SUBSCRIBE that timed out on a connection that stays up: try again, not at the next reconnection.
      setTimeout(() => {
        if (this.subscriber?.status === 'ready' && !this.subscribed) void this.subscribe();
      }, RESUBSCRIBE_MS).unref();
    }
  }

  private stop(reason?: string): void {
    if (this.subscribed && reason)
      this.logger.warn(
        { reason },
        'Wallet bindings are read from the database on every build until Redis answers again',
      );
    this.subscribed = false;
    this.owners.clear();
    this.epoch += 1;
  }
}

/** QUIT when connected, until the socket has closed; else stop reconnecting. */
async function close(client: Redis | undefined): Promise<void> {
  if (!client) return;
  if (client.status !== 'ready') return client.disconnect();
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  await client.quit().catch(() => client.disconnect());
  await Promise.race([ended, new Promise<void>((resolve) => setTimeout(resolve, 500).unref())]);
}
