import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { toDataURL } from 'qrcode';
import { DataSource, EntityManager, In, IsNull, Not, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import type { RequestMeta } from '../../common/http/request-meta';
import { MfaConfig } from '../../config/mfa.config';
import { SecurityConfig } from '../../config/security.config';
import { ActivityLog } from '../../events/activity-log';
import { UsersService } from '../users/users.service';
import { MfaKeys } from './mfa-keys';
import { MfaLockout } from './mfa-lockout';
import { MfaStatus } from './mfa-status';
import { RecoveryCode } from './recovery-code.entity';
import { TotpSecrets } from './totp-secrets';
import {
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  TOTP_CODE,
  totpUri,
  verifiedTotpStep,
} from './totp';
import { UserTotp } from './user-totp.entity';

export interface TotpSetup {
  secret: string;
  otpauthUri: string;
  qrCodeDataUrl: string;
}

export interface MfaUser {
  userId: string;
  accountId: string;
}

/** Which second factor a code matched. */
export type SecondFactor = 'totp' | 'recovery_code';

/**
 * TOTP two-factor sign-in (RFC 6238 via otplib): setup stores a pending secret (encrypted), the
 * first valid code enables it and yields ten recovery codes (kept as HMACs), and every code is
 * single use: a TOTP code at or before the last accepted time step is refused, a recovery code
 * once used is spent. Both checks are conditional UPDATEs, so two replicas cannot accept the
 * same code twice. Every code checked (login, enable, disable) counts toward the user's lockout
 * (MfaLockout), whatever address it comes from.
 */
@Injectable()
export class MfaService implements MfaStatus {
  private readonly lockout: MfaLockout;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(UserTotp) private readonly totps: Repository<UserTotp>,
    @InjectRepository(RecoveryCode) private readonly recoveryCodes: Repository<RecoveryCode>,
    private readonly keys: MfaKeys,
    private readonly totpSecrets: TotpSecrets,
    private readonly users: UsersService,
    private readonly activityLog: ActivityLog,
    private readonly config: SecurityConfig,
    lockoutConfig: MfaConfig,
  ) {
    this.lockout = new MfaLockout(dataSource, lockoutConfig);
  }

  isEnabled(userId: string): Promise<boolean> {
    return this.totps.existsBy({ userId, enabledAt: Not(IsNull()) });
  }

  /** A new pending secret (replacing an unconfirmed one); refused once TOTP is enabled. */
  async setup(user: MfaUser): Promise<TotpSetup> {
    if (await this.isEnabled(user.userId)) {
      throw new ApiError('INVALID_PARAMS', 'Two-factor sign-in is already enabled', {
        hint: 'To change authenticator, disable it first (POST /api/v1/auth/mfa/totp/disable with a code), then set it up again.',
      });
    }
    const secret = newTotpSecret();
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(UserTotp, { userId: user.userId });
      await manager.insert(UserTotp, {
        userId: user.userId,
        accountId: user.accountId,
        secretEncrypted: this.keys.encrypt(secret),
        enabledAt: null,
        lastUsedStep: null,
      });
    });
    const email = (await this.users.findById(user.userId))?.email ?? user.userId;
    const otpauthUri = totpUri(this.config.totpIssuer, email, secret);
    return { secret, otpauthUri, qrCodeDataUrl: await toDataURL(otpauthUri, { margin: 1 }) };
  }

  /** Confirms the pending secret with a code from the app; returns the recovery codes (once). */
  async enable(user: MfaUser, code: string, request: RequestMeta | null): Promise<string[]> {
    const pending = await this.totps.findOneBy({ userId: user.userId });
    if (!pending || pending.enabledAt !== null) {
      throw new ApiError(
        'INVALID_PARAMS',
        pending ? 'Two-factor sign-in is already enabled' : 'No authenticator is being set up',
        { hint: 'Call POST /api/v1/auth/mfa/totp/setup first, then enable with a code it shows.' },
      );
    }
    const secret = await this.totpSecrets.secretOf(pending);
    const step = await this.lockout.attempt(user.userId, () =>
      verifiedTotpStep(secret, code, null),
    );
    if (step === undefined) throw mfaInvalid();
    const codes = newRecoveryCodes();
    await this.dataSource.transaction(async (manager) => {
      const enabled = await manager.update(
        UserTotp,
        { userId: user.userId, enabledAt: IsNull() },
        { enabledAt: new Date(), lastUsedStep: step },
      );
      if (enabled.affected !== 1) throw mfaInvalid();
      await this.replaceRecoveryCodes(manager, user.userId, codes);
      await this.activityLog.record(
        {
          accountId: user.accountId,
          type: 'mfa.enabled',
          actor: { type: 'user', id: user.userId },
          target: { type: 'user', id: user.userId },
          data: { method: 'totp', recoveryCodes: codes.length },
          request,
        },
        manager,
      );
    });
    return codes;
  }

  /**
   * Turns two-factor sign-in off; needs a current code or an unused recovery code. Idempotent:
   * when it is already off there is nothing to protect, and a pending setup is dropped.
   */
  async disable(user: MfaUser, code: string, request: RequestMeta | null): Promise<void> {
    if (!(await this.isEnabled(user.userId))) {
      await this.totps.delete({ userId: user.userId });
      return;
    }
    const factor = await this.verifySecondFactor(user.userId, code);
    if (!factor) throw mfaInvalid();
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(RecoveryCode, { userId: user.userId });
      await manager.delete(UserTotp, { userId: user.userId });
      await this.activityLog.record(
        {
          accountId: user.accountId,
          type: 'mfa.disabled',
          actor: { type: 'user', id: user.userId },
          target: { type: 'user', id: user.userId },
          data: { method: 'totp', confirmedWith: factor },
          request,
        },
        manager,
      );
    });
  }

  /**
   * Checks a login's `otp` against an enabled authenticator: six digits are a TOTP code, anything
   * else a recovery code. Spends it on success (undefined: wrong, expired or already used).
   * Counts toward the user's lockout: 429 RATE_LIMIT_EXCEEDED, before any check, once locked.
   */
  async verifySecondFactor(userId: string, code: string): Promise<SecondFactor | undefined> {
    if (!(await this.isEnabled(userId))) return undefined;
    return this.lockout.attempt(userId, () => this.spendSecondFactor(userId, code));
  }

  private async spendSecondFactor(userId: string, code: string): Promise<SecondFactor | undefined> {
    const totp = await this.totps.findOneBy({ userId, enabledAt: Not(IsNull()) });
    if (!totp) return undefined;
    if (TOTP_CODE.test(code)) {
      const secret = await this.totpSecrets.secretOf(totp);
      const step = await verifiedTotpStep(secret, code, totp.lastUsedStep);
      if (step === undefined) return undefined;
      const spent = await this.totps
        .createQueryBuilder()
        .update(UserTotp)
        .set({ lastUsedStep: step })
        .where('user_id = :userId AND (last_used_step IS NULL OR last_used_step < :step)', {
          userId,
          step,
        })
        .execute();
      return spent.affected === 1 ? 'totp' : undefined;
    }
    const normalized = normalizeRecoveryCode(code);
    if (normalized.length !== 10) return undefined;
    // Matched under every listed key: codes issued before a key rotation stay valid.
    const spent = await this.recoveryCodes.update(
      { userId, codeHash: In(this.keys.recoveryCodeHashes(normalized)), usedAt: IsNull() },
      { usedAt: new Date() },
    );
    return spent.affected === 1 ? 'recovery_code' : undefined;
  }

  /** Whether this user has an authenticator set up but not yet confirmed (enrolment at login). */
  hasPendingSetup(userId: string): Promise<boolean> {
    return this.totps.existsBy({ userId, enabledAt: IsNull() });
  }

  private async replaceRecoveryCodes(
    manager: EntityManager,
    userId: string,
    codes: readonly string[],
  ): Promise<void> {
    await manager.delete(RecoveryCode, { userId });
    await manager.insert(
      RecoveryCode,
      codes.map((code) => ({
        id: randomUUID(),
        userId,
        codeHash: this.keys.recoveryCodeHash(normalizeRecoveryCode(code)),
        usedAt: null,
      })),
    );
  }
}

export function mfaInvalid(): ApiError {
  return new ApiError('MFA_INVALID', 'The one-time code is wrong, expired or already used');
}
