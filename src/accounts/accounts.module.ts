import { Global, Module } from '@nestjs/common';
import { API_KEY_CAP } from '../auth/api-keys/api-key-cap';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../auth/users/users.module';
import { Account } from './account.entity';
import { AccountProvisioningService } from './account-provisioning.service';
import { AccountsService } from './accounts.service';
import { PlansController } from './plans.controller';

/** Global for the API key cap only: auth cannot import this module (it is imported by it). */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Account]), UsersModule],
  controllers: [PlansController],
  providers: [
    AccountsService,
    AccountProvisioningService,
    { provide: API_KEY_CAP, useExisting: AccountsService },
  ],
  exports: [AccountsService, AccountProvisioningService, API_KEY_CAP],
})
export class AccountsModule {}
