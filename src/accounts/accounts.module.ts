import { Global, Module } from '@nestjs/common';
import { API_KEY_CAP } from '../auth/api-keys/api-key-cap';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail/mail.module';
import { UsersModule } from '../auth/users/users.module';
import { Account } from './account.entity';
import { AccountProvisioningService } from './account-provisioning.service';
import { AccountsService } from './accounts.service';
import { AcceptInvitationController } from './invitations/accept-invitation.controller';
import { Invitation } from './invitations/invitation.entity';
import { InvitationsController } from './invitations/invitations.controller';
import { InvitationPreviewService } from './invitations/invitation-preview.service';
import { InvitationsService } from './invitations/invitations.service';
import { MeController } from './me/me.controller';
import { MeService } from './me/me.service';
import { MembersController } from './members/members.controller';
import { MembersService } from './members/members.service';
import { PlansController } from './plans.controller';

/**
 * Accounts, their plans, members and invitations. Global for the API key cap only: auth cannot
 * import this module (it is imported by it).
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([Account, Invitation]),
    UsersModule,
    // Invitations are mailed. (Their acceptance is throttled like a login, by AuthThrottlingModule,
    // global: the throttler storage it needs is built from this module's accounts.)
    MailModule,
  ],
  controllers: [
    PlansController,
    MeController,
    MembersController,
    InvitationsController,
    AcceptInvitationController,
  ],
  providers: [
    AccountsService,
    AccountProvisioningService,
    MembersService,
    InvitationsService,
    InvitationPreviewService,
    MeService,
    { provide: API_KEY_CAP, useExisting: AccountsService },
  ],
  exports: [AccountsService, AccountProvisioningService, API_KEY_CAP],
})
export class AccountsModule {}
