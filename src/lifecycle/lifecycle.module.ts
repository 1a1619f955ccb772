import { Global, Module } from '@nestjs/common';
import { GracefulShutdownService } from './graceful-shutdown.service';
import { InFlightRequests } from './in-flight-requests';
import { ShutdownReport } from './shutdown-report';

@Global()
@Module({
  providers: [InFlightRequests, GracefulShutdownService, ShutdownReport],
  exports: [InFlightRequests, GracefulShutdownService, ShutdownReport],
})
export class LifecycleModule {}
