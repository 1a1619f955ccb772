import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseConfig, DatabaseConfig } from '../config/database.config';
import { buildDataSourceOptions } from './data-source-options';
import { SqliteCheckpointer } from './sqlite-checkpointer';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [databaseConfig.KEY],
      useFactory: (database: DatabaseConfig) => ({
        ...buildDataSourceOptions(database),
        // A database that starts after us gets a few seconds; then the boot fails loudly.
        retryAttempts: 5,
        retryDelay: 1_000,
      }),
    }),
  ],
  providers: [SqliteCheckpointer],
  exports: [SqliteCheckpointer],
})
export class DatabaseModule {}
