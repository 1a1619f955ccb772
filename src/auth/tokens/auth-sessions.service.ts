import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { deleteInBatches } from '../../common/database/delete-in-batches';
import { AuthSession } from './auth-session.entity';
import { RefreshToken } from './refresh-token.entity';

export type RefreshOutcome = 'ok' | 'unknown' | 'revoked' | 'reused';

/** A login that has had no refresh token for this long is over (they are stored at login). */
const SESSION_WITHOUT_TOKENS_MS = 24 * 60 * 60 * 1000;

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Login sessions and their refresh tokens: rotation, reuse detection, revocation. */
@Injectable()
export class AuthSessionsService {
  private readonly logger = new Logger(AuthSessionsService.name);

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(AuthSession) private readonly sessions: Repository<AuthSession>,
    @InjectRepository(RefreshToken) private readonly tokens: Repository<RefreshToken>,
  ) {}

  async open(userId: string, accountId: string): Promise<string> {
    const id = randomUUID();
    await this.sessions.insert({
      id,
      userId,
      accountId,
      revokedAt: null,
      revokedReason: null,
      createdAt: new Date(),
    });
    return id;
  }

  /**
   * The login is open AND belongs to this user and account: a token whose sub/acc do not match its
   * sid's session (forged with a leaked secret, or minted by a buggy issuer) is refused.
   */
  async isActiveFor(
    sessionId: string,
    owner: { userId: string; accountId: string },
  ): Promise<boolean> {
    return this.sessions.existsBy({
      id: sessionId,
      userId: owner.userId,
      accountId: owner.accountId,
      revokedAt: IsNull(),
    });
  }

  async storeRefreshToken(
    sessionId: string,
    jti: string,
    token: string,
    expiresAt: Date,
  ): Promise<void> {
    await this.tokens.insert({
      id: jti,
      sessionId,
      tokenHash: hashToken(token),
      expiresAt,
      usedAt: null,
      createdAt: new Date(),
    });
  }

  /**
   * Marks a refresh token used, exactly once. Presenting a used token again means it leaked (or was
   * raced): the whole session is revoked, so neither the thief nor the owner can continue with it.
   */
  async consumeRefreshToken(
    claims: { sid: string; jti: string; sub: string; acc: string },
    token: string,
  ): Promise<RefreshOutcome> {
    const sessionId = claims.sid;
    const row = await this.tokens.findOneBy({ id: claims.jti, sessionId });
    if (!row || row.tokenHash !== hashToken(token)) return 'unknown';
    if (!(await this.isActiveFor(sessionId, { userId: claims.sub, accountId: claims.acc })))
      return 'revoked';
    const result = await this.tokens.update(
      { id: claims.jti, usedAt: IsNull() },
      { usedAt: new Date() },
    );
    if (result.affected === 1) return 'ok';
    await this.revoke(sessionId, 'reuse_detected');
    this.logger.warn({ sessionId }, 'Refresh token reuse detected; session revoked');
    return 'reused';
  }

  async revoke(sessionId: string, reason: 'logout' | 'reuse_detected'): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(AuthSession)
      .set({ revokedAt: new Date(), revokedReason: reason })
      .where('id = :sessionId AND revoked_at IS NULL', { sessionId })
      .execute();
  }

  /**
   * Retention (issue 15): expired refresh tokens can never be used again (their JWT is expired
   * too), and a login with none left is over. Bounded batches; called by the retention sweep.
   */
  async pruneExpired(now: number, batchSize: number): Promise<Record<string, number>> {
    const driver = this.dataSource.driver;
    const at = (
      repo: Repository<AuthSession> | Repository<RefreshToken>,
      prop: string,
      ms: number,
    ) =>
      driver.preparePersistentValue(new Date(ms), repo.metadata.findColumnWithPropertyName(prop)!);
    const refreshTokens = await deleteInBatches(
      this.tokens,
      't.expiresAt < :now',
      { now: at(this.tokens, 'expiresAt', now) },
      batchSize,
    );
    const authSessions = await deleteInBatches(
      this.sessions,
      't.createdAt < :cutoff AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.session_id = t.id)',
      { cutoff: at(this.sessions, 'createdAt', now - SESSION_WITHOUT_TOKENS_MS) },
      batchSize,
    );
    return { refreshTokens, authSessions };
  }
}
