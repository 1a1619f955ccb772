import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import type { RequestMeta } from '../../common/http/request-meta';
import { ActivityLog } from '../../events/activity-log';
import { AccountSecurity } from './account-security.entity';

export interface AccountSecuritySettings {
  mfaRequired: boolean;
}

/**
 * An account's sign-in policy (owner-set): whether every member must use two-factor sign-in.
 * Members without it (the owner included) enrol at their next login (AuthService.enrolAtLogin),
 * so requiring it locks nobody out.
 */
@Injectable()
export class AccountSecurityService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(AccountSecurity) private readonly settings: Repository<AccountSecurity>,
    private readonly activityLog: ActivityLog,
  ) {}

  async forAccount(accountId: string): Promise<AccountSecuritySettings> {
    const row = await this.settings.findOneBy({ accountId });
    return { mfaRequired: row?.mfaRequired ?? false };
  }

  async isMfaRequired(accountId: string): Promise<boolean> {
    return (await this.forAccount(accountId)).mfaRequired;
  }

  async update(
    actor: { accountId: string; userId: string },
    change: Partial<AccountSecuritySettings>,
    request: RequestMeta | null,
  ): Promise<AccountSecuritySettings> {
    const before = await this.forAccount(actor.accountId);
    const after = { ...before, ...change };
    if (after.mfaRequired === before.mfaRequired) return after;
    await this.dataSource.transaction(async (manager) => {
      await manager.upsert(
        AccountSecurity,
        { accountId: actor.accountId, mfaRequired: after.mfaRequired },
        ['accountId'],
      );
      await this.activityLog.record(
        {
          accountId: actor.accountId,
          type: 'account.settings_changed',
          actor: { type: 'user', id: actor.userId },
          target: { type: 'account', id: actor.accountId },
          data: { mfaRequired: { from: before.mfaRequired, to: after.mfaRequired } },
          request,
        },
        manager,
      );
    });
    return after;
  }
}
