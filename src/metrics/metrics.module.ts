import { Global, Module } from '@nestjs/common';
import { MetricsServer } from './metrics-server';
import { Metrics } from './metrics.service';

/** The metrics every feature sets (global, like the readiness registry) and their listener. */
@Global()
@Module({
  providers: [Metrics, MetricsServer],
  exports: [Metrics, MetricsServer],
})
export class MetricsModule {}
