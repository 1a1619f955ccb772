import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ConfigTokensModule } from '../config/config-tokens.module';
import { ThrottlerModule } from '@nestjs/throttler';
import { AccountsModule } from '../accounts/accounts.module';
import { AuditModule } from '../audit/audit.module';
import { AuthThrottlingModule } from '../auth/throttling/auth-throttling.module';
import { CONFIG_NAMESPACES } from '../config';
import { DatabaseModule } from '../database/database.module';
import { EventsModule } from '../events/events.module';
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
    ConfigTokensModule,
    DatabaseModule,
    EventsModule,
    AuditModule,
    WebhookOutboxModule,
    AccountsModule,
    // Invitation acceptance (in AccountsModule) is throttled like a login; the CLI accepts none,
    // but builds the module: the throttles get an in-memory storage here.
    ThrottlerModule.forRoot([]),
    AuthThrottlingModule,
    CliComplianceModule,
  ],
})
export class CliModule {}
