import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { DemoAccountSeeder } from './accounts/demo-account.seeder';
import { ErrorEnvelopeFilter } from './common/errors/error-envelope.filter';
import { LoggingModule } from './common/logging/logging.module';
import { AppValidationPipe } from './common/validation/app-validation.pipe';
import { RequestValidationGuard } from './common/validation/request-validation.guard';
import { CONFIG_NAMESPACES } from './config';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: CONFIG_NAMESPACES }),
    LoggingModule,
    LifecycleModule,
    DatabaseModule,
    HealthModule,
    AccountsModule,
    // Feature modules (auth, usage, chain, compliance, defi-builder) are registered below.
  ],
  providers: [
    AppValidationPipe,
    { provide: APP_PIPE, useExisting: AppValidationPipe },
    { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
    // Global guards run in this order (spec §7): validation, then auth, then the rate limit.
    { provide: APP_GUARD, useClass: RequestValidationGuard },
    DemoAccountSeeder,
  ],
})
export class AppModule {}
