import { Module } from '@nestjs/common';
import { TypeOrmModule, TypeOrmModuleOptions } from '@nestjs/typeorm';
import { databaseConfig, DatabaseConfig } from '../config/database.config';
import { DataSource, DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { DatabasePoolMetrics } from './database-pool.metrics';
import { prepareSchema, SchemaBehindError } from './migrations-runner';
import { SqliteCheckpointer } from './sqlite-checkpointer';

/** Carried from the options factory to the data source factory (TypeORM ignores it). */
interface WithMigrations {
  migrationsMode: DatabaseConfig['migrations'];
}

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [databaseConfig.KEY],
      useFactory: (database: DatabaseConfig): TypeOrmModuleOptions & WithMigrations => ({
        ...buildDataSourceOptions(database),
        migrationsMode: database.migrations,
        // A database that starts after us gets a few seconds; then the boot fails loudly.
        retryAttempts: 5,
        retryDelay: 1_000,
        // A schema that is behind (DATABASE_MIGRATIONS=off) does not fix itself by retrying.
        toRetry: (err: unknown) => !(err instanceof SchemaBehindError),
      }),
      // Migrations (DATABASE_MIGRATIONS) before any provider can query the database.
      dataSourceFactory: async (options?: DataSourceOptions) => {
        const { migrationsMode, ...dataSourceOptions } = options as DataSourceOptions &
          WithMigrations;
        const dataSource = await new DataSource(dataSourceOptions).initialize();
        try {
          await prepareSchema(dataSource, migrationsMode);
        } catch (err) {
          await dataSource.destroy().catch(() => undefined);
          throw err;
        }
        return dataSource;
      },
    }),
  ],
  providers: [SqliteCheckpointer, DatabasePoolMetrics],
  exports: [SqliteCheckpointer],
})
export class DatabaseModule {}
