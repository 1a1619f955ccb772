import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../../common/errors/api-error';
import { authConfig, AuthConfig } from '../../config/auth.config';
import { AuthSessionsService } from '../tokens/auth-sessions.service';
import { invalid, JwtTokensService } from '../tokens/jwt-tokens.service';
import { FailedAuthThrottle } from '../throttling/failed-auth.throttle';
import { Argon2Gate } from '../users/argon2-gate';
import { ARGON2_OPTIONS, UsersService } from '../users/users.service';
import { LoginAttemptsLimiter } from './login-attempts.limiter';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  refreshExpiresIn: number;
}

/** Dashboard login, refresh-token rotation and logout. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);
  /** Verified against for unknown emails, so both failures cost one argon2id verification. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly users: UsersService,
    private readonly sessions: AuthSessionsService,
    private readonly tokens: JwtTokensService,
    private readonly attempts: LoginAttemptsLimiter,
    private readonly failures: FailedAuthThrottle,
    private readonly argon2: Argon2Gate,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {}

  async login(email: string, password: string, ip: string | undefined): Promise<TokenPair> {
    this.failures.assertAllowed('login', ip);
    await this.attempts.consume(email, ip);
    const user = await this.users.findByEmailWithPasswordHash(email);
    const hash = user?.passwordHash ?? (await this.dummyPasswordHash());
    const matches = await this.argon2.verify(hash, password);
    if (!user || !matches) {
      this.logger.log({ userId: user?.id }, 'Login refused');
      const refused = new ApiError('INVALID_CREDENTIALS', 'Email or password is incorrect');
      throw await this.failures.recordFailure('login', ip, refused);
    }
    const sessionId = await this.sessions.open(user.id, user.accountId);
    this.logger.log({ userId: user.id, accountId: user.accountId, sessionId }, 'Login');
    return this.issue(user.id, user.accountId, sessionId);
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const claims = await this.tokens.verify(refreshToken, 'refresh');
    const rotation = await this.sessions.rotateRefreshToken(claims, refreshToken);
    if (rotation.outcome === 'reused') {
      throw new ApiError(
        'JWT_INVALID',
        'This refresh token was already used; every token of this login was revoked for safety',
        { hint: 'Log in again with POST /auth/login: refreshing cannot resume a revoked login.' },
      );
    }
    if (rotation.outcome !== 'ok') throw invalid('refresh');
    // A retry within the grace window gets the same refresh token back, and a new access token.
    return this.pair(claims.sub, claims.acc, claims.sid, rotation.successor.token);
  }

  /** Ends the login the refresh token belongs to: its access and refresh tokens stop working. */
  async logout(refreshToken: string): Promise<void> {
    const claims = await this.tokens.verify(refreshToken, 'refresh');
    await this.sessions.revoke(claims.sid, 'logout');
    this.logger.log({ sessionId: claims.sid }, 'Logout');
  }

  private async issue(userId: string, accountId: string, sessionId: string): Promise<TokenPair> {
    const refresh = this.tokens.sign('refresh', { userId, accountId, sessionId });
    await this.sessions.storeRefreshToken(sessionId, refresh.jti, refresh.token, refresh.expiresAt);
    return this.pair(userId, accountId, sessionId, refresh.token);
  }

  private pair(
    userId: string,
    accountId: string,
    sessionId: string,
    refreshToken: string,
  ): TokenPair {
    const access = this.tokens.sign('access', { userId, accountId, sessionId });
    return {
      accessToken: access.token,
      refreshToken,
      tokenType: 'Bearer',
      expiresIn: this.config.accessTokenTtlSeconds,
      refreshExpiresIn: this.config.refreshTokenTtlSeconds,
    };
  }

  private dummyPasswordHash(): Promise<string> {
    this.dummyHash ??= this.argon2.hash(randomBytes(16).toString('hex'), ARGON2_OPTIONS);
    return this.dummyHash;
  }
}
