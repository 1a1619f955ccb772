import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { envInt, envString, envUrl, invalidConfig } from './env-reader';

export const redisConfig = registerAs('redis', () => {
  const env = process.env;
  const given = envString(env, 'REDIS_KEY_PREFIX', 'cgk:');
  const keyPrefix = /^[A-Za-z0-9:_.-]{1,64}$/.test(given)
    ? given
    : invalidConfig(
        'REDIS_KEY_PREFIX',
        'must be 1-64 characters of A-Z a-z 0-9 : _ . -',
        given,
        'cgk:',
      );
  return {
    /** Unset: rate-limit state lives in process memory (one instance only). */
    url: envUrl(env, 'REDIS_URL', ['redis', 'rediss']),
    keyPrefix,
    /** Short on purpose: a slow or absent Redis must never hold a request (see the outage policy). */
    connectTimeoutMs: envInt(env, 'REDIS_CONNECT_TIMEOUT_MS', 1_000, { min: 50, max: 30_000 }),
    commandTimeoutMs: envInt(env, 'REDIS_COMMAND_TIMEOUT_MS', 250, { min: 10, max: 10_000 }),
  };
});

export type RedisConfig = ConfigType<typeof redisConfig>;
/** The DI token of this namespace (see configToken). */
export const RedisConfig = configToken(redisConfig);

/**
 * The service's Redis clients (the rate limiter's, the wallet owners' publisher and subscriber):
 * tuned never to hold a request: no offline queue (commands fail at once while disconnected),
 * short connect and command timeouts, reconnection in the background.
 */
export function redisClientOptions(config: RedisConfig) {
  return {
    lazyConnect: true,
    connectTimeout: config.connectTimeoutMs,
    commandTimeout: config.commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // How long a closing socket may linger; ioredis' 2 s would hold shutdown when Redis is down.
    disconnectTimeout: 200,
    retryStrategy: (attempt: number) => Math.min(250 * attempt, 2_000),
  };
}
