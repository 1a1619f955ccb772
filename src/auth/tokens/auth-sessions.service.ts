import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { v5 as nameBasedUuid } from 'uuid';
import { deleteInBatches } from '../../common/database/delete-in-batches';
import { AuthConfig } from '../../config/auth.config';
import { AuthSession } from './auth-session.entity';
import { JwtTokensService } from './jwt-tokens.service';
import { RefreshToken } from './refresh-token.entity';

export type RefreshOutcome = 'ok' | 'unknown' | 'revoked' | 'reused';

/** A rotation's result: on `ok`, the refresh token that replaces the one presented. */
export type RefreshRotation =
  | { outcome: 'ok'; successor: { token: string; expiresAt: Date } }
  | { outcome: Exclude<RefreshOutcome, 'ok'> };

/** Namespace of successor jtis: uuid v5 of the rotated token's jti (any fixed UUID would do). */
const SUCCESSOR_NAMESPACE = '3f0c1d52-8a4e-4b7e-9a35-6f1d2c7e0b91';

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
    private readonly jwt: JwtTokensService,
    private readonly config: AuthConfig,
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
   * Rotates a refresh token: marks it used, exactly once (across replicas: the database decides),
   * and stores its successor. Presented again within
   * AUTH_REFRESH_REUSE_GRACE_SECONDS of that rotation while the successor is still unused, it
   * gets the same successor back: a client that retried (a timeout, another replica) keeps its
   * login. Otherwise a second presentation is reuse: the token leaked, or was raced by someone
   * who already moved on, and the whole login is revoked.
   *
   * The successor is never stored, only its hash, like every refresh token: it is re-derived.
   * Its jti is a name-based UUID of the rotated token's jti, and it is issued at the rotation's
   * time (used_at, whole seconds); HS256 makes the same claims give the same token. Deriving it
   * needs the JWT secret, so a copy of the database alone does not yield it.
   */
  async rotateRefreshToken(
    claims: { sid: string; jti: string; sub: string; acc: string },
    token: string,
  ): Promise<RefreshRotation> {
    const sessionId = claims.sid;
    const row = await this.tokens.findOneBy({ id: claims.jti, sessionId });
    if (!row || row.tokenHash !== hashToken(token)) return { outcome: 'unknown' };
    if (!(await this.isActiveFor(sessionId, { userId: claims.sub, accountId: claims.acc })))
      return { outcome: 'revoked' };
    const usedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    const marked = await this.tokens.update({ id: claims.jti, usedAt: IsNull() }, { usedAt });
    if (marked.affected === 1) {
      const successor = this.successorOf(claims, usedAt);
      await this.storeSuccessor(sessionId, successor);
      return { outcome: 'ok', successor };
    }
    const retried = await this.successorForRetry(claims);
    if (retried) return { outcome: 'ok', successor: retried };
    await this.revoke(sessionId, 'reuse_detected');
    this.logger.warn({ sessionId }, 'Refresh token reuse detected; session revoked');
    return { outcome: 'reused' };
  }

  /**
   * Idempotent: the rotation and a retry store the same row (the same derived token). No
   * transaction with the mark above: SQLite's one connection cannot nest them for concurrent
   * requests, and a rotation that stops between the two is completed by the client's retry.
   */
  private async storeSuccessor(
    sessionId: string,
    successor: { jti: string; token: string; expiresAt: Date },
  ): Promise<void> {
    await this.tokens
      .createQueryBuilder()
      .insert()
      .values({
        id: successor.jti,
        sessionId,
        tokenHash: hashToken(successor.token),
        expiresAt: successor.expiresAt,
        usedAt: null,
      })
      .orIgnore()
      .execute();
  }

  /** The successor given at the rotation, if this is a retry within the grace window. */
  private async successorForRetry(claims: {
    sid: string;
    jti: string;
    sub: string;
    acc: string;
  }): Promise<{ token: string; expiresAt: Date } | undefined> {
    const graceMs = this.config.refreshReuseGraceSeconds * 1000;
    if (graceMs === 0) return undefined;
    const used = await this.tokens.findOneBy({ id: claims.jti, sessionId: claims.sid });
    if (!used?.usedAt || Date.now() - used.usedAt.getTime() > graceMs) return undefined;
    const successor = this.successorOf(claims, used.usedAt);
    await this.storeSuccessor(claims.sid, successor);
    const stored = await this.tokens.findOneBy({ id: successor.jti, sessionId: claims.sid });
    // Once the successor has been used the client has moved on: the old token is reuse.
    if (!stored || stored.usedAt !== null || stored.tokenHash !== hashToken(successor.token))
      return undefined;
    return successor;
  }

  private successorOf(claims: { sid: string; jti: string; sub: string; acc: string }, at: Date) {
    return this.jwt.sign(
      'refresh',
      { userId: claims.sub, accountId: claims.acc, sessionId: claims.sid },
      {
        jti: nameBasedUuid(claims.jti, SUCCESSOR_NAMESPACE),
        issuedAtSeconds: Math.floor(at.getTime() / 1000),
      },
    );
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
