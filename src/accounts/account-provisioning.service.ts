import { ConflictException, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UsersService } from '../auth/users/users.service';
import { Account, Plan } from './account.entity';
import { AccountsService } from './accounts.service';

export interface ProvisionedAccount {
  accountId: string;
  userId: string;
}

/** Creates an account together with its first user, in one transaction. */
@Injectable()
export class AccountProvisioningService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
  ) {}

  /** Give `password`, or `passwordHash` when it was hashed earlier (a confirmed sign-up). */
  async createAccountWithUser(input: {
    name: string;
    email: string;
    plan?: Plan;
    password?: string;
    passwordHash?: string;
  }): Promise<ProvisionedAccount> {
    if (await this.users.findByEmail(input.email)) {
      throw new ConflictException(`A user with email ${input.email} already exists`);
    }
    const account = this.accounts.build(input.name, input.plan ?? 'free');
    // Hash first (argon2 is slow): the transaction holds no lock while it runs.
    if (input.passwordHash === undefined && input.password === undefined)
      throw new Error('createAccountWithUser needs a password or its hash');
    const passwordHash = input.passwordHash ?? (await this.users.hashPassword(input.password!));
    const user = this.users.buildHashed(account.id, input.email, passwordHash);
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.insert(Account, account);
        await this.users.insert(user, manager);
      });
    } catch (error) {
      // Taken between the check and the insert (the unique email refused it).
      if (await this.users.findByEmail(input.email))
        throw new ConflictException(`A user with email ${input.email} already exists`);
      throw error;
    }
    return { accountId: account.id, userId: user.id };
  }

  async accountIdForEmail(email: string): Promise<string> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new ConflictException(`No user with email ${email}`);
    return user.accountId;
  }
}
