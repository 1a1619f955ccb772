import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../auth/users/users.module';
import { Account } from './account.entity';
import { AccountProvisioningService } from './account-provisioning.service';
import { AccountsService } from './accounts.service';

@Module({
  imports: [TypeOrmModule.forFeature([Account]), UsersModule],
  providers: [AccountsService, AccountProvisioningService],
  exports: [AccountsService, AccountProvisioningService],
})
export class AccountsModule {}
