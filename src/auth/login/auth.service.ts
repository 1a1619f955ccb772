import { Injectable, Logger } from '@nestjs/common';
import { CredentialAttempts } from '../throttling/credential-attempts';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import type { RequestMeta } from '../../common/http/request-meta';
import { AuthConfig } from '../../config/auth.config';
import { SecurityConfig } from '../../config/security.config';
import type { ActivityEvent } from '../../events/activity-event';
import { ActivityLog } from '../../events/activity-log';
import { AccountSecurityService } from '../mfa/account-security.service';
import { MfaService, mfaInvalid, SecondFactor, TotpSetup } from '../mfa/mfa.service';
import { AuthSessionsService } from '../tokens/auth-sessions.service';
import { invalid, JwtTokensService } from '../tokens/jwt-tokens.service';
import { Argon2Gate } from '../users/argon2-gate';
import { User } from '../users/user.entity';
import { ARGON2_OPTIONS, UsersService } from '../users/users.service';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  refreshExpiresIn: number;
}

export interface LoginInput {
  email: string;
  password: string;
  otp?: string;
}

export type LoginResult = TokenPair & { recoveryCodes?: string[] };

/**
 * Dashboard login (password, then the second factor when the user has one or the account
 * requires one), refresh-token rotation and logout; each is recorded in the activity log.
 */
@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);
  /** Verified against for unknown emails, so both failures cost one argon2id verification. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly sessions: AuthSessionsService,
    private readonly tokens: JwtTokensService,
    private readonly credentialAttempts: CredentialAttempts,
    private readonly argon2: Argon2Gate,
    private readonly mfa: MfaService,
    private readonly accountSecurity: AccountSecurityService,
    private readonly activityLog: ActivityLog,
    private readonly config: AuthConfig,
    private readonly security: SecurityConfig,
  ) {}

  async login(input: LoginInput, meta: RequestMeta): Promise<LoginResult> {
    const user = await this.firstFactor(input, meta);
    const second = await this.secondFactor(user, input, meta);
    const sessionId = await this.sessions.open(user.id, user.accountId);
    this.logger.log({ userId: user.id, accountId: user.accountId, sessionId }, 'Login');
    await this.record(meta, {
      accountId: user.accountId,
      type: 'auth.login_succeeded',
      actor: { type: 'user', id: user.id },
      target: { type: 'session', id: sessionId },
      data: { email: user.email, secondFactor: second?.factor ?? null },
    });
    const pair = await this.issue(user.id, user.accountId, sessionId);
    return second?.recoveryCodes ? { ...pair, recoveryCodes: second.recoveryCodes } : pair;
  }

  /**
   * Enrolment at login, for a member of an account that requires two-factor sign-in and has
   * none yet: the password proves the user, and the pending secret is confirmed by the next
   * login's `otp`. Throttled and counted exactly like a login.
   */
  async enrolAtLogin(input: LoginInput, meta: RequestMeta): Promise<TotpSetup> {
    const user = await this.firstFactor(input, meta);
    if (await this.mfa.isEnabled(user.id)) {
      throw new ApiError('INVALID_PARAMS', 'Two-factor sign-in is already enabled', {
        hint: 'Log in with POST /auth/login and your code as `otp`.',
      });
    }
    if (!(await this.accountSecurity.isMfaRequired(user.accountId))) {
      throw new ApiError('INVALID_PARAMS', 'Your account does not require two-factor sign-in', {
        hint: 'Log in, then enrol from the dashboard (POST /api/v1/auth/mfa/totp/setup).',
      });
    }
    return this.mfa.setup({ userId: user.id, accountId: user.accountId });
  }

  async refresh(refreshToken: string, meta: RequestMeta): Promise<TokenPair> {
    const claims = await this.tokens.verify(refreshToken, 'refresh');
    const rotation = await this.sessions.rotateRefreshToken(claims, refreshToken);
    if (rotation.outcome === 'reused') {
      await this.record(meta, {
        accountId: claims.acc,
        type: 'auth.refresh_reuse_detected',
        actor: { type: 'user', id: claims.sub },
        target: { type: 'session', id: claims.sid },
        data: { sessionRevoked: true },
      });
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

  /**
   * Ends the login the token belongs to (its refresh token, or an access token of it): its access
   * and refresh tokens stop working.
   */
  async logout(token: string, typ: 'refresh' | 'access', meta: RequestMeta): Promise<void> {
    const claims = await this.tokens.verify(token, typ);
    await this.sessions.revoke(claims.sid, 'logout');
    this.logger.log({ sessionId: claims.sid }, 'Logout');
    await this.record(meta, {
      accountId: claims.acc,
      type: 'auth.logout',
      actor: { type: 'user', id: claims.sub },
      target: { type: 'session', id: claims.sid },
    });
  }

  /** Throttles, then email + password: the same 401 for an unknown email and a wrong password. */
  private async firstFactor(input: LoginInput, meta: RequestMeta): Promise<User> {
    const ip = meta.ip ?? undefined;
    await this.credentialAttempts.admit({ email: input.email }, ip, false);
    const user = await this.users.findByEmailWithPasswordHash(input.email);
    const hash = user?.passwordHash ?? (await this.dummyPasswordHash());
    const matches = await this.argon2.verify(hash, input.password);
    if (user && matches) return user;
    // An unknown email belongs to no account, so it has no audit trail: the log line only.
    this.logger.log({ userId: user?.id }, 'Login refused');
    if (user) await this.recordFailure(user, 'invalid_password', meta);
    const refused = new ApiError('INVALID_CREDENTIALS', 'Email or password is incorrect', {
      hint: this.invalidCredentialsHint(),
    });
    throw await this.credentialAttempts.refuse(ip, refused);
  }

  /** Where accounts come from in this mode: sign-up when it is open, else the catalogue's (CLI). */
  private invalidCredentialsHint(): string | undefined {
    return this.security.signupEnabled
      ? 'Check the email and password; no account yet? Sign up with POST /auth/signup (the dashboard has a sign-up page).'
      : undefined;
  }

  /**
   * A user with an authenticator must send `otp` (a wrong one counts as a failed login); a member
   * of an account that requires MFA without one must enrol first (enrolAtLogin), and finishes
   * enrolling with this login's `otp`.
   */
  private async secondFactor(
    user: User,
    input: LoginInput,
    meta: RequestMeta,
  ): Promise<{ factor: SecondFactor; recoveryCodes?: string[] } | undefined> {
    const mfaUser = { userId: user.id, accountId: user.accountId };
    if (await this.mfa.isEnabled(user.id)) {
      const otp = input.otp;
      if (!otp) {
        await this.recordFailure(user, 'mfa_required', meta);
        throw new ApiError('MFA_REQUIRED', 'This user signs in with a second factor: send `otp`');
      }
      const factor = await this.lockedOutRecorded(user, meta, () =>
        this.mfa.verifySecondFactor(user.id, otp),
      );
      if (factor) return { factor };
      throw await this.refuseSecondFactor(user, meta);
    }
    if (!(await this.accountSecurity.isMfaRequired(user.accountId))) return undefined;
    const otp = input.otp;
    if (otp && (await this.mfa.hasPendingSetup(user.id))) {
      try {
        const recoveryCodes = await this.lockedOutRecorded(user, meta, () =>
          this.mfa.enable(mfaUser, otp, meta),
        );
        return { factor: 'totp', recoveryCodes };
      } catch (error) {
        if (error instanceof ApiError && error.code === 'MFA_INVALID')
          throw await this.refuseSecondFactor(user, meta);
        throw error;
      }
    }
    await this.recordFailure(user, 'mfa_enrollment_required', meta);
    throw new ApiError(
      'MFA_REQUIRED',
      'Your account requires two-factor sign-in: enrol an authenticator app to continue',
      {
        hint: 'POST /auth/mfa/totp/enroll with your email and password returns a secret and QR code for an authenticator app; then log in again with its current code as `otp` (the answer carries your recovery codes, once).',
        extra: { enrollmentRequired: true },
      },
    );
  }

  /** The user's codes are locked out (MfaLockout, 429): the refusal is recorded like a failure. */
  private async lockedOutRecorded<T>(user: User, meta: RequestMeta, check: () => Promise<T>) {
    try {
      return await check();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'RATE_LIMIT_EXCEEDED')
        await this.recordFailure(user, 'mfa_locked', meta);
      throw error;
    }
  }

  private async refuseSecondFactor(user: User, meta: RequestMeta): Promise<ApiError> {
    this.logger.log({ userId: user.id }, 'Login refused: second factor');
    await this.recordFailure(user, 'mfa_invalid', meta);
    return this.credentialAttempts.refuse(meta.ip ?? undefined, mfaInvalid());
  }

  private recordFailure(user: User, reason: string, meta: RequestMeta): Promise<void> {
    // The actor is whoever typed the credentials: unauthenticated, so no id; the target is the user.
    return this.record(meta, {
      accountId: user.accountId,
      type: 'auth.login_failed',
      actor: { type: 'user', id: null },
      target: { type: 'user', id: user.id },
      data: { email: user.email, reason },
    });
  }

  /** Sign-in events change nothing else: written on their own, outside any transaction. */
  private async record(meta: RequestMeta, event: Omit<ActivityEvent, 'request'>): Promise<void> {
    await this.activityLog.record({ ...event, request: meta }, this.dataSource.manager);
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
