import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { AuthConfig } from '../../config/auth.config';
import type { Principal } from '../principal';
import { ApiKey } from './api-key.entity';
import { apiKeyHashMatches, parseApiKey } from './api-key-format';

/** How often last_used_at is written per key: not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Rows held by the authentication cache at most (cleared when full). */
const CACHED_KEYS_MAX = 10_000;

/** X-API-Key authentication (spec §5.4), with a short per-instance cache of key rows. */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly logger = new Logger(ApiKeyAuthenticator.name);
  /**
   * Key rows by lookup prefix, as last read for authentication (API_KEY_CACHE_MS). Only rows that
   * exist are held (an unknown prefix is read every time, so guessing cannot fill memory); the
   * hash, the active flag and the expiry are still checked on every request.
   */
  private readonly verified = new Map<string, { row: ApiKey; until: number }>();

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly config: AuthConfig,
  ) {}

  /** Drops a key's cached row: its next request reads the database (after an edit or a revocation). */
  forget(lookupPrefix: string): void {
    this.verified.delete(lookupPrefix);
  }

  /** Spec §5.4 order: format, prefix lookup, hash, active flag, expiry. Scopes are the guard's. */
  async authenticate(key: string): Promise<Principal> {
    const parsed = parseApiKey(key, this.config.apiKeyPrefix);
    if (!parsed)
      throw new ApiError(
        'API_KEY_FORMAT_INVALID',
        `The API key does not match ${this.config.apiKeyPrefix}_{test|live}_{48 hex}`,
      );
    const row = await this.rowForAuthentication(parsed.lookupPrefix);
    if (!row) throw new ApiError('API_KEY_PREFIX_NOT_FOUND', 'No API key with this prefix exists');
    if (!apiKeyHashMatches(key, row.keyHash))
      throw new ApiError('API_KEY_HASH_MISMATCH', 'The API key does not match the stored key');
    if (!row.active) throw new ApiError('API_KEY_INACTIVE', 'This API key was revoked');
    const now = new Date();
    if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) {
      throw new ApiError(
        'API_KEY_EXPIRED',
        `This API key expired at ${row.expiresAt.toISOString()}`,
      );
    }
    this.touch(row, now);
    return { method: 'api_key', accountId: row.accountId, apiKeyId: row.id, scopes: row.scopes };
  }

  /** The key row, from the authentication cache while fresh, else from the database. */
  private async rowForAuthentication(lookupPrefix: string): Promise<ApiKey | null> {
    const now = Date.now();
    const cached = this.verified.get(lookupPrefix);
    if (cached && cached.until > now) return cached.row;
    const row = await this.findByLookupPrefixWithHash(lookupPrefix);
    if (this.config.apiKeyCacheMs > 0) {
      if (!row) this.verified.delete(lookupPrefix);
      else {
        if (this.verified.size >= CACHED_KEYS_MAX) this.verified.clear();
        this.verified.set(lookupPrefix, { row, until: now + this.config.apiKeyCacheMs });
      }
    }
    return row;
  }

  private findByLookupPrefixWithHash(lookupPrefix: string): Promise<ApiKey | null> {
    return this.keys
      .createQueryBuilder('key')
      .addSelect('key.keyHash')
      .where('key.lookupPrefix = :lookupPrefix', { lookupPrefix })
      .getOne();
  }

  /** Off the request path, at most once a minute per key. */
  private touch(row: ApiKey, now: Date): void {
    if (row.lastUsedAt && now.getTime() - row.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS)
      return;
    // The cached row too: the next requests within the minute write nothing.
    row.lastUsedAt = now;
    this.keys.update({ id: row.id }, { lastUsedAt: now }).catch((err: unknown) => {
      this.logger.warn(
        { apiKeyId: row.id, err: (err as Error).message },
        'Could not record last use of an API key',
      );
    });
  }
}
