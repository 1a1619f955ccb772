import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ThrottlerModule } from '@nestjs/throttler';
import { AccountsModule } from '../accounts/accounts.module';
import { AuditModule } from '../audit/audit.module';
import { AuthThrottlingModule } from '../auth/throttling/auth-throttling.module';
import { CONFIG_NAMESPACES } from '../config';
import { DatabaseModule } from '../database/database.module';
import { EventsModule } from '../events/events.module';
import { MailModule } from '../mail/mail.module';
import { WebhookOutboxModule } from '../webhooks/outbox/webhook-outbox.module';
import { CliComplianceModule } from './cli-compliance.module';

/**
 * What the operator CLI needs: configuration, the database, the attester, and the activity log
 * with the audit trail (operator changes are audited) and the webhook outbox (a revocation
 * from the CLI is queued for the server's dispatcher to deliver); never HTTP or a devnet.
 */
@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: CONFIG_NAMESPACES }),
    DatabaseModule,
    EventsModule,
    // Global in the app; the accounts module's invitations need the Mailer and the login
    // throttles here as well, or the CLI does not start. The CLI logs nobody in: the throttles'
    // storage is this process's memory, never the server's Redis.
    MailModule,
    ThrottlerModule.forRoot([]),
    AuthThrottlingModule,
    AuditModule,
    WebhookOutboxModule,
    AccountsModule,
    CliComplianceModule,
  ],
})
export class CliModule {}
