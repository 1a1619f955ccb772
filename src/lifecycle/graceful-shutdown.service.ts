import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { AppConfig } from '../config/app.config';
import { InFlightRequests } from './in-flight-requests';
import { ShutdownReport } from './shutdown-report';

/**
 * Shutdown (SIGTERM via enableShutdownHooks, or app.close()): readiness turns 503 (for
 * SHUTDOWN_READINESS_DELAY_MS while still accepting), then the server stops accepting connections, and in-flight requests finish before the database and other clients are
 * closed by the later shutdown hooks. onModuleDestroy is the first hook Nest runs on close.
 * Whatever a hook waits on, a signalled shutdown ends by a hard deadline (shutdown-deadline.ts).
 */
@Injectable()
export class GracefulShutdownService implements OnModuleDestroy {
  private readonly logger = new Logger(GracefulShutdownService.name);
  private draining = false;

  constructor(
    readonly inFlight: InFlightRequests,
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
    private readonly report: ShutdownReport,
  ) {}

  get isDraining(): boolean {
    return this.draining;
  }

  async onModuleDestroy(): Promise<void> {
    this.draining = true;
    this.report.begin();
    if (this.config.shutdownReadinessDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.config.shutdownReadinessDelayMs));
    }
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server?.listening) {
      server.close();
      server.closeIdleConnections?.();
    }
    const pending = this.inFlight.size;
    const drained = await this.inFlight.drained(this.config.shutdownGraceMs);
    if (pending > 0) this.logger.log({ pending, drained }, 'Drained in-flight requests');
    this.report.note(
      'requests',
      { inFlight: pending, drained },
      pending === 0
        ? 'no request in flight'
        : drained
          ? `${pending} in-flight request(s) finished`
          : `${pending} in-flight request(s) cut off after SHUTDOWN_GRACE_MS (${this.config.shutdownGraceMs} ms)`,
    );
    server?.closeAllConnections?.();
  }
}
