import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { IsNull, LessThan, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { toValidationError } from '../../common/validation/validation-exception.factory';
import { authConfig, AuthConfig } from '../../config/auth.config';
import type { Principal } from '../principal';
import type { Scope } from '../scopes';
import { API_KEY_CAP, ApiKeyCap } from './api-key-cap';
import { ApiKey } from './api-key.entity';
import { API_KEY_PAGE_DEFAULT, decodeApiKeyCursor, encodeApiKeyCursor } from './api-key-page';
import {
  apiKeyHashMatches,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  parseApiKey,
} from './api-key-format';

/** How often last_used_at is written per key: not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Rows held by the authentication cache at most (cleared when full). */
const CACHED_KEYS_MAX = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  active: boolean;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  /**
   * Key rows by lookup prefix, as last read for authentication (API_KEY_CACHE_MS). Only rows that
   * exist are held (an unknown prefix is read every time, so guessing cannot fill memory); the
   * hash, the active flag and the expiry are still checked on every request.
   */
  private readonly verified = new Map<string, { row: ApiKey; until: number }>();

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
    @Inject(API_KEY_CAP) private readonly cap: ApiKeyCap,
  ) {}

  /** Creates a key; the returned `key` is the only time the secret exists outside the caller's hands. */
  async create(
    owner: { accountId: string; userId?: string },
    input: { name: string; scopes: Scope[]; expiresAt?: Date },
  ): Promise<ApiKeyView & { key: string }> {
    if (input.expiresAt) this.assertWithinLifetime(input.expiresAt);
    await this.assertBelowCap(owner.accountId);
    const key = generateApiKey(this.config.apiKeyPrefix, this.config.apiKeyMode);
    const parsed = parseApiKey(key, this.config.apiKeyPrefix)!;
    const entity = this.keys.create({
      id: randomUUID(),
      accountId: owner.accountId,
      createdByUserId: owner.userId ?? null,
      name: input.name,
      mode: parsed.mode,
      lookupPrefix: parsed.lookupPrefix,
      keyHash: hashApiKey(key),
      scopes: [...new Set(input.scopes)],
      active: true,
      expiresAt: input.expiresAt ?? null,
      lastUsedAt: null,
      revokedAt: null,
      createdAt: new Date(),
    });
    await this.keys.insert(entity);
    this.logger.log(
      { apiKeyId: entity.id, accountId: owner.accountId, scopes: entity.scopes },
      'API key created',
    );
    return { ...this.view(entity), key };
  }

  /** Newest first, one page; nextCursor is null on the last page. */
  async listForAccount(
    accountId: string,
    page: { limit?: number; cursor?: string } = {},
  ): Promise<{ items: ApiKeyView[]; nextCursor: string | null }> {
    const limit = page.limit ?? API_KEY_PAGE_DEFAULT;
    const after = page.cursor === undefined ? undefined : decodeApiKeyCursor(page.cursor);
    if (page.cursor !== undefined && !after) {
      throw new ApiError('INVALID_PARAMS', 'cursor is not a nextCursor of this list', {
        details: [{ field: 'cursor', constraint: 'cursor', message: 'unknown cursor' }],
      });
    }
    const rows = await this.keys.find({
      where: after
        ? [
            { accountId, createdAt: LessThan(after.createdAt) },
            { accountId, createdAt: after.createdAt, id: LessThan(after.id) },
          ]
        : { accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit + 1,
    });
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map((row) => this.view(row)),
      nextCursor: rows.length > limit && last ? encodeApiKeyCursor(last) : null,
    };
  }

  /**
   * The request's DTO has checked the form and that the expiry is in the future; the horizon is
   * this deployment's (API_KEY_MAX_LIFETIME_DAYS), so it is checked here, still as a field error.
   */
  private assertWithinLifetime(expiresAt: Date): void {
    const days = this.config.apiKeyMaxLifetimeDays;
    const latest = new Date(Date.now() + days * DAY_MS);
    if (expiresAt.getTime() <= latest.getTime()) return;
    throw toValidationError([
      {
        field: 'expiresAt',
        constraint: 'maxLifetime',
        message: `expiresAt must be at most ${days} days from now (the longest key lifetime here): ${latest.toISOString()} or earlier`,
      },
    ]);
  }

  /** Revoked keys do not count. Checked before the insert: a concurrent burst may pass by a few. */
  private async assertBelowCap(accountId: string): Promise<void> {
    const [max, held] = await Promise.all([
      this.cap.maxApiKeys(accountId),
      this.keys.countBy({ accountId, revokedAt: IsNull() }),
    ]);
    if (held < max) return;
    throw new ApiError(
      'API_KEY_LIMIT_REACHED',
      `Your plan allows ${max} active API keys and your account holds ${held}`,
      { details: [{ limit: max, active: held }] },
    );
  }

  /** Revokes a key of the caller's account; another account's key id is indistinguishable from none. */
  async revoke(accountId: string, id: string): Promise<ApiKeyView> {
    const row = await this.keys.findOneBy({ id, accountId });
    if (!row)
      throw new ApiError('NOT_FOUND', 'No API key with this id in your account', {
        hint: 'GET /api/v1/api-keys lists your keys.',
      });
    if (row.active) {
      row.active = false;
      row.revokedAt = new Date();
      await this.keys.update(
        { id, accountId, revokedAt: IsNull() },
        { active: false, revokedAt: row.revokedAt },
      );
      this.verified.delete(row.lookupPrefix);
      this.logger.log({ apiKeyId: id, accountId }, 'API key revoked');
    }
    return this.view(row);
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

  private view(row: ApiKey): ApiKeyView {
    return {
      id: row.id,
      name: row.name,
      prefix: displayPrefix(this.config.apiKeyPrefix, row.mode, row.lookupPrefix),
      scopes: row.scopes,
      active: row.active,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      revokedAt: row.revokedAt?.toISOString() ?? null,
    };
  }
}
