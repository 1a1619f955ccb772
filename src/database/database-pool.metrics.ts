import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from '../metrics/metrics.service';

/** The parts of pg's Pool the metrics read (TypeORM's PostgreSQL driver keeps it as `master`). */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

/**
 * The database pool's use, read at each scrape (PostgreSQL: TypeORM's pg pool):
 * cgk_database_pool_connections{state="in_use"|"idle"}, cgk_database_pool_max and
 * cgk_database_pool_waiting (queries waiting for a connection: the pool is the bottleneck when it
 * stays above 0). SQLite has no pool (one connection in the process): no series.
 */
@Injectable()
export class DatabasePoolMetrics {
  constructor(@InjectDataSource() dataSource: DataSource, @Optional() metrics?: Metrics) {
    if (!metrics || dataSource.options.type !== 'postgres') return;
    metrics.onScrape('database-pool', () => {
      const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
      if (!pool) return Promise.resolve();
      metrics.databasePoolConnections.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      metrics.databasePoolConnections.set({ state: 'idle' }, pool.idleCount);
      metrics.databasePoolWaiting.set(pool.waitingCount);
      if (pool.options?.max !== undefined) metrics.databasePoolMax.set(pool.options.max);
      return Promise.resolve();
    });
  }
}
