import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AccountsModule } from '../accounts/accounts.module';
import { CONFIG_NAMESPACES } from '../config';
import { DatabaseModule } from '../database/database.module';

/** What the operator CLI needs: configuration and the database, never the chain or HTTP. */
@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: CONFIG_NAMESPACES }),
    DatabaseModule,
    AccountsModule,
  ],
})
export class CliModule {}
