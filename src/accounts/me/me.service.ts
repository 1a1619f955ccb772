import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MFA_STATUS, MfaStatus } from '../../auth/mfa/mfa-status';
import { ApiError } from '../../common/errors/api-error';
import { AccountsService } from '../accounts.service';
import { effectiveMonthlyQuota, effectiveRateLimit } from '../plans';
import { MembersService } from '../members/members.service';

/** The signed-in user and their account, as the dashboard shows them. */
@Injectable()
export class MeService implements OnModuleInit {
  private readonly logger = new Logger(MeService.name);
  private mfa: MfaStatus | undefined;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly accounts: AccountsService,
    private readonly members: MembersService,
  ) {}

  /** MFA_STATUS comes from the auth module's MFA feature; without it nobody has MFA on. */
  onModuleInit(): void {
    try {
      this.mfa = this.moduleRef.get<MfaStatus>(MFA_STATUS, { strict: false });
    } catch {
      this.logger.debug('No MFA_STATUS provider: mfaEnabled is false for everyone');
    }
  }

  async me(accountId: string, userId: string) {
    const [user, account] = await Promise.all([
      this.members.get(accountId, userId),
      this.accounts.findById(accountId),
    ]);
    if (!account) throw new ApiError('NOT_FOUND', 'Your account no longer exists');
    return {
      user: {
        id: user.id,
        email: user.email,
        role: user.role,
        mfaEnabled: (await this.mfa?.isEnabled(user.id)) ?? false,
      },
      account: {
        id: account.id,
        name: account.name,
        plan: account.plan,
        monthlyQuota: effectiveMonthlyQuota(account),
        rateLimitPerMinute: effectiveRateLimit(account),
      },
    };
  }
}
