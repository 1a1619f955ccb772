import { Global, Module } from '@nestjs/common';
import { GracefulShutdownService } from './graceful-shutdown.service';
import { InFlightRequests } from './in-flight-requests';

@Global()
@Module({
  providers: [InFlightRequests, GracefulShutdownService],
  exports: [InFlightRequests, GracefulShutdownService],
})
export class LifecycleModule {}
