import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { EntityManager, IsNull, LessThan, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import type { RequestMeta } from '../../common/http/request-meta';
import { toValidationError } from '../../common/validation/validation-exception.factory';
import { AuthConfig } from '../../config/auth.config';
import { actorOf } from '../../events/activity-event';
import { ActivityLog } from '../../events/activity-log';
import { either, keyScopesAllowed, Role, roleForbidden, rolesGranting } from '../roles';
import type { Scope } from '../scopes';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { API_KEY_CAP, ApiKeyCap } from './api-key-cap';
import { ApiKey } from './api-key.entity';
import { API_KEY_PAGE_DEFAULT, decodeApiKeyCursor, encodeApiKeyCursor } from './api-key-page';
import { displayPrefix, generateApiKey, hashApiKey, parseApiKey } from './api-key-format';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ApiKeyView {
  id: string;
  name: string;
  createdByUserId: string | null;
  prefix: string;
  scopes: Scope[];
  active: boolean;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Who manages a key: the account, the dashboard user (and role) and where the request came from. */
export interface ApiKeyActor {
  accountId: string;
  userId?: string;
  apiKeyId?: string;
  role?: Role;
  request?: RequestMeta;
}

export interface ApiKeyChanges {
  name?: string;
  scopes?: Scope[];
  /** null: the key never expires; undefined: unchanged. */
  expiresAt?: Date | null;
}

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly config: AuthConfig,
    @Inject(API_KEY_CAP) private readonly cap: ApiKeyCap,
    private readonly activity: ActivityLog,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  /** Creates a key; the returned `key` is the only time the secret exists outside the caller's hands. */
  async create(
    owner: ApiKeyActor,
    input: { name: string; scopes: Scope[]; expiresAt?: Date },
  ): Promise<ApiKeyView & { key: string }> {
    assertRoleMayGrant(owner.role, input.scopes);
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
    await this.keys.manager.transaction(async (manager) => {
      await manager.getRepository(ApiKey).insert(entity);
      await this.recordActivity('api_key.created', owner, entity, manager);
    });
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

  /**
   * Edits a key's name, scopes or expiry (never its secret). A member edits only keys whose scopes,
   * before and after, their role may grant. The authentication cache forgets the key at once.
   */
  async update(actor: ApiKeyActor, id: string, changes: ApiKeyChanges): Promise<ApiKeyView> {
    const row = await this.findInAccount(actor.accountId, id);
    const scopes = changes.scopes ? [...new Set(changes.scopes)] : row.scopes;
    assertRoleMayGrant(actor.role, [...new Set([...row.scopes, ...scopes])]);
    if (changes.expiresAt) this.assertWithinLifetime(changes.expiresAt);
    const set: Partial<Pick<ApiKey, 'name' | 'scopes' | 'expiresAt'>> = {};
    if (changes.name !== undefined && changes.name !== row.name) set.name = changes.name;
    if (changes.scopes && !sameScopes(scopes, row.scopes)) set.scopes = scopes;
    if (
      changes.expiresAt !== undefined &&
      (changes.expiresAt?.getTime() ?? null) !== (row.expiresAt?.getTime() ?? null)
    )
      set.expiresAt = changes.expiresAt;
    if (Object.keys(set).length === 0) return this.view(row);
    Object.assign(row, set);
    await this.keys.manager.transaction(async (manager) => {
      await manager.getRepository(ApiKey).update({ id, accountId: actor.accountId }, set);
      await this.recordActivity('api_key.updated', actor, row, manager, {
        changed: Object.keys(set),
        expiresAt: row.expiresAt?.toISOString() ?? null,
      });
    });
    this.authenticator.forget(row.lookupPrefix);
    this.logger.log(
      { apiKeyId: id, accountId: actor.accountId, changed: Object.keys(set) },
      'API key updated',
    );
    return this.view(row);
  }

  /**
   * Revokes a key of the caller's account; another account's key id is indistinguishable from none.
   * A member revokes only keys whose scopes their role may grant, like create and edit: a developer
   * cannot cut off the security team's `audit:read` key.
   */
  async revoke(actor: ApiKeyActor, id: string): Promise<ApiKeyView> {
    const row = await this.findInAccount(actor.accountId, id);
    assertRoleMayGrant(actor.role, row.scopes, 'revoke');
    if (row.active) {
      row.active = false;
      row.revokedAt = new Date();
      await this.keys.manager.transaction(async (manager) => {
        const revoked = await manager
          .getRepository(ApiKey)
          .update(
            { id, accountId: actor.accountId, revokedAt: IsNull() },
            { active: false, revokedAt: row.revokedAt },
          );
        // A concurrent revocation already recorded it.
        if (revoked.affected) await this.recordActivity('api_key.revoked', actor, row, manager);
      });
      this.authenticator.forget(row.lookupPrefix);
      this.logger.log({ apiKeyId: id, accountId: actor.accountId }, 'API key revoked');
    }
    return this.view(row);
  }

  /** The member who created a key of this account (four eyes: the requester of its builds). */
  async creatorOf(accountId: string, id: string): Promise<string | null> {
    const row = await this.keys.findOne({
      where: { id, accountId },
      select: { id: true, createdByUserId: true },
    });
    return row?.createdByUserId ?? null;
  }

  private async findInAccount(accountId: string, id: string): Promise<ApiKey> {
    const row = await this.keys.findOneBy({ id, accountId });
    if (row) return row;
    throw new ApiError('NOT_FOUND', 'No API key with this id in your account', {
      hint: 'GET /api/v1/api-keys lists your keys.',
    });
  }

  /** api_key.* events carry what identifies the key, never its secret or hash. */
  private async recordActivity(
    type: 'api_key.created' | 'api_key.updated' | 'api_key.revoked',
    actor: ApiKeyActor,
    row: ApiKey,
    manager: EntityManager,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    await this.activity.record(
      {
        accountId: actor.accountId,
        type,
        actor: actorOf(actor),
        target: { type: 'api_key', id: row.id },
        data: {
          name: row.name,
          prefix: displayPrefix(this.config.apiKeyPrefix, row.mode, row.lookupPrefix),
          scopes: row.scopes,
          ...extra,
        },
        request: actor.request ?? null,
      },
      manager,
    );
  }

  private view(row: ApiKey): ApiKeyView {
    return {
      id: row.id,
      name: row.name,
      createdByUserId: row.createdByUserId,
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

/** A dashboard member grants only the scopes their role may (API keys and the CLI have no role). */
function assertRoleMayGrant(
  role: Role | undefined,
  scopes: readonly Scope[],
  action: 'give' | 'revoke' = 'give',
): void {
  if (role === undefined) return;
  const allowed = keyScopesAllowed(role);
  const beyond = scopes.filter((scope) => !allowed.includes(scope));
  if (beyond.length === 0 && (action === 'give' || allowed.length > 0)) return;
  const required = rolesGranting(scopes).filter((r) => keyScopesAllowed(r).length > 0);
  const what =
    action === 'give'
      ? `give a key ${beyond.join(', ')}`
      : `revoke a key with ${beyond.length ? beyond.join(', ') : 'any scope'}`;
  throw roleForbidden(role, required, {
    message: `The ${role} role cannot ${what}; it needs ${either(required)}`,
    extra: { scopes: beyond },
  });
}

function sameScopes(a: readonly Scope[], b: readonly Scope[]): boolean {
  return a.length === b.length && a.every((scope) => b.includes(scope));
}
