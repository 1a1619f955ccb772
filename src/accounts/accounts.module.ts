import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../auth/users/users.module';
import { Account } from './account.entity';
import { AccountProvisioningService } from './account-provisioning.service';
import { AccountsService } from './accounts.service';
import { PlansController } from './plans.controller';

@Module({
  imports: [TypeOrmModule.forFeature([Account]), UsersModule],
  controllers: [PlansController],
  providers: [AccountsService, AccountProvisioningService],
  exports: [AccountsService, AccountProvisioningService],
})
export class AccountsModule {}
