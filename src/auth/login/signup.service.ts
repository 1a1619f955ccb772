import { ConflictException, Inject, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import type { RequestMeta } from '../../common/http/request-meta';
import { securityConfig, SecurityConfig } from '../../config/security.config';
import { ActivityLog } from '../../events/activity-log';
import { FailedAuthThrottle } from '../throttling/failed-auth.throttle';
import { Argon2Gate } from '../users/argon2-gate';
import { ARGON2_OPTIONS, PASSWORD_MIN_LENGTH, UsersService } from '../users/users.service';
import { ACCOUNT_OPENER, AccountOpener } from './account-opener';
import { LoginAttemptsLimiter } from './login-attempts.limiter';

export interface SignupInput {
  email: string;
  password: string;
  accountName: string;
}

export interface SignupAnswer {
  email: string;
  message: string;
  next: string;
}

/**
 * Self-service sign-up (SIGNUP_ENABLED): a new account on the default plan whose first user is
 * its owner. Whether the email was free is never said: a taken email gets the same 201, after the
 * same argon2id work. Every sign-up, new email or taken, counts as a failed login for the client
 * IP (AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE): probing emails through sign-up is throttled like
 * guessing them through login, and the throttle itself says nothing about which were taken.
 * The caller logs in next.
 */
@Injectable()
export class SignupService {
  private readonly logger = new Logger(SignupService.name);

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly attempts: LoginAttemptsLimiter,
    private readonly failures: FailedAuthThrottle,
    private readonly argon2: Argon2Gate,
    private readonly activityLog: ActivityLog,
    @Inject(securityConfig.KEY) private readonly config: SecurityConfig,
  ) {}

  /** 404 NOT_FOUND, exactly like an unknown route, when sign-up is off. */
  assertEnabled(): void {
    if (!this.config.signupEnabled || !this.opener())
      throw new ApiError('NOT_FOUND', 'No such endpoint');
  }

  /** For the sign-in page: whether to offer sign-up (the setting is not a secret). */
  availability() {
    const enabled = this.config.signupEnabled && this.opener() !== undefined;
    return { enabled, passwordMinLength: PASSWORD_MIN_LENGTH };
  }

  async signup(input: SignupInput, meta: RequestMeta): Promise<SignupAnswer> {
    this.assertEnabled();
    const ip = meta.ip ?? undefined;
    this.failures.assertAllowed('login', ip);
    await this.attempts.consume(input.email, ip);
    await this.countAttempt(ip);
    const answer = {
      email: input.email.trim().toLowerCase(),
      message: 'If this email was free, its account is ready: log in with POST /auth/login.',
      next: '/auth/login',
    };
    if (await this.users.findByEmail(input.email)) {
      // The work a creation does (one argon2id hash), so timing does not tell either.
      await this.argon2.hash(input.password, ARGON2_OPTIONS);
      return answer;
    }
    let opened: { accountId: string; userId: string };
    try {
      opened = await this.opener()!.createAccountWithUser({
        name: input.accountName,
        email: input.email,
        password: input.password,
      });
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      return answer; // taken between the check and the insert
    }
    this.logger.log(opened, 'Sign-up');
    await this.activityLog.record(
      {
        accountId: opened.accountId,
        type: 'auth.signup',
        actor: { type: 'user', id: opened.userId },
        target: { type: 'account', id: opened.accountId },
        data: { email: answer.email, accountName: input.accountName },
        request: meta,
      },
      this.dataSource.manager,
    );
    return answer;
  }

  /** Counted before any work; past the IP's limit the 429 is the answer. */
  private async countAttempt(ip: string | undefined): Promise<void> {
    const placeholder = new ApiError('INVALID_CREDENTIALS', 'taken');
    const outcome = await this.failures.recordFailure('login', ip, placeholder);
    if (outcome !== placeholder) throw outcome;
  }

  /** Bound at the wiring level (account-opener.ts); looked up, as auth cannot import accounts. */
  private opener(): AccountOpener | undefined {
    try {
      return this.moduleRef.get<AccountOpener>(ACCOUNT_OPENER, { strict: false });
    } catch {
      return undefined;
    }
  }
}
