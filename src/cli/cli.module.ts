import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AccountsModule } from '../accounts/accounts.module';
import { CONFIG_NAMESPACES } from '../config';
import { DatabaseModule } from '../database/database.module';
import { CliComplianceModule } from './cli-compliance.module';

/** What the operator CLI needs: configuration, the database and the attester; never HTTP or a devnet. */
@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: CONFIG_NAMESPACES }),
    DatabaseModule,
    AccountsModule,
    CliComplianceModule,
  ],
})
export class CliModule {}
