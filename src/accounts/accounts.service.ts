import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import type { ApiKeyCap } from '../auth/api-keys/api-key-cap';
import { Account, Plan } from './account.entity';
import { PLAN_MAX_API_KEYS } from './plans';

@Injectable()
export class AccountsService implements ApiKeyCap {
  constructor(@InjectRepository(Account) private readonly accounts: Repository<Account>) {}

  findById(id: string): Promise<Account | null> {
    return this.accounts.findOneBy({ id });
  }

  async maxApiKeys(accountId: string): Promise<number> {
    const account = await this.accounts.findOne({
      where: { id: accountId },
      select: { plan: true },
    });
    return PLAN_MAX_API_KEYS[account?.plan ?? 'free'];
  }

  count(): Promise<number> {
    return this.accounts.count();
  }

  build(name: string, plan: Plan): Account {
    return this.accounts.create({
      id: randomUUID(),
      name,
      plan,
      rateLimitPerMinute: null,
      monthlyQuota: null,
    });
  }

  async setPlan(id: string, plan: Plan): Promise<void> {
    await this.accounts.update({ id }, { plan });
  }

  async setRateLimitOverride(id: string, perMinute: number | null): Promise<void> {
    await this.accounts.update({ id }, { rateLimitPerMinute: perMinute });
  }

  async setMonthlyQuotaOverride(id: string, perMonth: number | null): Promise<void> {
    await this.accounts.update({ id }, { monthlyQuota: perMonth });
  }
}
