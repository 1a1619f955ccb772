import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { databaseConfig } from './src/config/database.config';
import { buildDataSourceOptions } from './src/database/data-source-options';

/** Data source for the TypeORM CLI (`npm run typeorm -- migration:run -d ormconfig.ts`). */
export default new DataSource(buildDataSourceOptions(databaseConfig()));
