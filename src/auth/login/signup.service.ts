import { ConflictException, Injectable, Logger } from '@nestjs/common';
import { CredentialAttempts } from '../throttling/credential-attempts';
import { ModuleRef } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, MoreThan, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import type { RequestMeta } from '../../common/http/request-meta';
import { AccountsConfig } from '../../config/accounts.config';
import { SecurityConfig } from '../../config/security.config';
import { ActivityLog } from '../../events/activity-log';
import { Mailer } from '../../mail/mailer';
import { normalizeEmail, PASSWORD_MIN_LENGTH, UsersService } from '../users/users.service';
import { ACCOUNT_OPENER, AccountOpener } from './account-opener';
import { generateSignupToken, hashMailedToken } from './mailed-token';
import { SignupConfirmation } from './signup-confirmation.entity';

/** How long a sign-up's mailed link works. */
const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;

export interface SignupInput {
  email: string;
  password: string;
  accountName: string;
}

export interface SignupAnswer {
  email: string;
  message: string;
  next: string;
  /** Demo mode without SMTP only: the link that would have been mailed. */
  link?: string;
}

/**
 * Self-service sign-up (SIGNUP_ENABLED), confirmed by a link mailed to the address (issue 46):
 * nothing exists for the email until the link is followed, so a sign-up blocks nobody, and the
 * first confirmation wins. Whether the email had a login is never said: every sign-up does the same
 * work (one argon2id hash, one row, one message) and gets the same 201, and its confirmation the
 * same answer. Every sign-up and confirmation counts as a failed login of the client IP
 * (AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE), a sign-up toward its email's login attempts too, and a
 * confirmation toward its token's: probing is throttled like guessing through login.
 */
@Injectable()
export class SignupService {
  private readonly logger = new Logger(SignupService.name);

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly dataSource: DataSource,
    @InjectRepository(SignupConfirmation)
    private readonly confirmations: Repository<SignupConfirmation>,
    private readonly users: UsersService,
    private readonly credentialAttempts: CredentialAttempts,
    private readonly mailer: Mailer,
    private readonly activityLog: ActivityLog,
    private readonly config: SecurityConfig,
    private readonly links: AccountsConfig,
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
    await this.credentialAttempts.admit({ email: input.email }, ip, true);
    const email = normalizeEmail(input.email);
    const token = generateSignupToken();
    const now = new Date();
    await this.confirmations.insert({
      id: randomUUID(),
      email,
      accountName: input.accountName,
      passwordHash: await this.users.hashPassword(input.password),
      tokenHash: hashMailedToken(token),
      expiresAt: new Date(now.getTime() + CONFIRMATION_TTL_MS),
      confirmedAt: null,
      createdAt: now,
    });
    const link = `${this.links.publicBaseUrl ?? ''}/dashboard/#confirm-signup=${token}`;
    await this.mailer.send({
      to: email,
      subject: 'Confirm your sign-up',
      link,
      text: [
        `Someone (we hope you) asked to open the account "${input.accountName}" with this address.`,
        `To confirm, open this link within 24 hours:`,
        '',
        absolute(link),
        '',
        'If this address already has a login, confirming changes nothing. If it was not you, ignore this message: nothing exists until the link is followed.',
      ].join('\n'),
    });
    return {
      email,
      message:
        'Follow the link sent to this address to open the account (POST /auth/signup/confirm with its token), then log in with POST /auth/login.',
      next: '/auth/signup/confirm',
      ...(this.mailer.delivers ? {} : { link }),
    };
  }

  /**
   * Opens the account of a mailed sign-up link, unless the email has a login by now (the first
   * confirmation wins); the answer is the same either way. Single use: claimed with a conditional
   * update. NOT_FOUND for an unknown, expired or used token (which says nothing about the email).
   */
  async confirm(token: string, meta: RequestMeta): Promise<SignupAnswer> {
    this.assertEnabled();
    const ip = meta.ip ?? undefined;
    await this.credentialAttempts.admit({ token, purpose: 'signup' }, ip, true);
    const row = await this.confirmations
      .createQueryBuilder('c')
      .addSelect('c.passwordHash')
      .where('c.token_hash = :hash', { hash: hashMailedToken(token) })
      .getOne();
    if (!row || row.confirmedAt || row.expiresAt.getTime() <= Date.now())
      throw confirmationNotFound();
    const claimed = await this.confirmations.update(
      { id: row.id, confirmedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      { confirmedAt: new Date() },
    );
    if (claimed.affected !== 1) throw confirmationNotFound();
    const answer = {
      email: row.email,
      message:
        'If this email had no login yet, its account is open now: log in with POST /auth/login.',
      next: '/auth/login',
    };
    let opened: { accountId: string; userId: string };
    try {
      opened = await this.opener()!.createAccountWithUser({
        name: row.accountName,
        email: row.email,
        passwordHash: row.passwordHash,
      });
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      this.logger.log(
        { confirmationId: row.id },
        'Sign-up confirmed for an email with a login: nothing opened',
      );
      return answer;
    }
    this.logger.log(opened, 'Sign-up');
    await this.activityLog.record(
      {
        accountId: opened.accountId,
        type: 'auth.signup',
        actor: { type: 'user', id: opened.userId },
        target: { type: 'account', id: opened.accountId },
        data: { email: row.email, accountName: row.accountName },
        request: meta,
      },
      this.dataSource.manager,
    );
    return answer;
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

/** A link in a mail must be absolute: without PUBLIC_BASE_URL, a path the reader completes. */
function absolute(link: string): string {
  return link.startsWith('/') ? `(this service's address)${link}` : link;
}

function confirmationNotFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No pending sign-up with this token', {
    hint: 'A sign-up link works once, for 24 hours; sign up again with POST /auth/signup for a new one.',
  });
}
