import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ConfigTokensModule } from './config/config-tokens.module';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { ApprovalsModule } from './approvals/approvals.module';
import { AccountProvisioningService } from './accounts/account-provisioning.service';
import { AuditModule } from './audit/audit.module';
import { ApiKeyOrJwtGuard } from './auth/api-key-or-jwt.guard';
import { HotRoutesFirst } from './bootstrap/hot-routes';
import { AuthModule } from './auth/auth.module';
import { ACCOUNT_OPENER } from './auth/login/account-opener';
import { IdempotencyModule } from './auth/idempotency/idempotency.module';
import { ChainModule } from './chain/chain.module';
import { EventsModule } from './events/events.module';
import { DemoAccountSeeder } from './accounts/demo-account.seeder';
import { ErrorEnvelopeFilter } from './common/errors/error-envelope.filter';
import { LoggingModule } from './common/logging/logging.module';
import { AppValidationPipe } from './common/validation/app-validation.pipe';
import { RequestValidationGuard } from './common/validation/request-validation.guard';
import { CONFIG_NAMESPACES } from './config';
import { ComplianceModule } from './compliance/compliance.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DatabaseModule } from './database/database.module';
import { DefiBuilderModule } from './defi-builder/defi-builder.module';
import { ReceiptsModule } from './receipts/receipts.module';
import { HealthModule } from './health/health.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { MetricsModule } from './metrics/metrics.module';
import { MonthlyQuotaGuard } from './usage/quota/monthly-quota.guard';
import { AccountRateLimitGuard } from './usage/rate-limit/account-rate-limit.guard';
import { UsageModule } from './usage/usage.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: CONFIG_NAMESPACES }),
    ConfigTokensModule,
    LoggingModule,
    LifecycleModule,
    MetricsModule,
    DatabaseModule,
    EventsModule,
    HealthModule,
    AccountsModule,
    AuthModule,
    IdempotencyModule,
    UsageModule,
    ChainModule,
    DefiBuilderModule,
    ComplianceModule,
    DashboardModule,
    AuditModule,
    ReceiptsModule,
    ApprovalsModule,
    WebhooksModule,
    // Feature modules (auth, usage, chain, compliance, defi-builder) are registered below.
  ],
  providers: [
    AppValidationPipe,
    { provide: APP_PIPE, useExisting: AppValidationPipe },
    { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
    // Global guards run in this order (spec §7): validation, then auth, then the monthly quota
    // (every authenticated request counts), then the rate limit.
    { provide: APP_GUARD, useClass: RequestValidationGuard },
    { provide: APP_GUARD, useClass: ApiKeyOrJwtGuard },
    { provide: APP_GUARD, useExisting: MonthlyQuotaGuard },
    { provide: APP_GUARD, useClass: AccountRateLimitGuard },
    DemoAccountSeeder,
    // Once every route is registered: the DeFi routes are tried first (bootstrap/hot-routes.ts).
    HotRoutesFirst,
    // Sign-up (auth) opens accounts (a level up): bound here, where both are visible.
    { provide: ACCOUNT_OPENER, useExisting: AccountProvisioningService },
  ],
})
export class AppModule {}
