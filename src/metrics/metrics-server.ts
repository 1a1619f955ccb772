import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MetricsConfig } from '../config/metrics.config';
import { InFlightRequests } from '../lifecycle/in-flight-requests';
import { Metrics } from './metrics.service';

/**
 * GET /metrics on its own listener (METRICS_HOST:METRICS_PORT, loopback by default), apart from
 * the API's port: a load balancer or a public ingress in front of the API never exposes it, and
 * Prometheus scrapes it from beside the process. Off when METRICS_PORT is unset.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    private readonly metrics: Metrics,
    private readonly inFlight: InFlightRequests,
    private readonly config: MetricsConfig,
  ) {}

  /** Where it listens (null when off): for the start line and tests started on port 0. */
  get address(): { host: string; port: number } | null {
    const address = this.server?.address() as AddressInfo | null | undefined;
    return address ? { host: address.address, port: address.port } : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.port === undefined) return;
    this.metrics.inFlight.set(0);
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
        return;
      }
      this.metrics.inFlight.set(this.inFlight.size);
      this.metrics
        .render()
        .then((text) => res.writeHead(200, { 'content-type': this.metrics.contentType }).end(text))
        .catch((error: unknown) => {
          this.logger.error({ err: (error as Error).message }, 'metrics could not be rendered');
          res.writeHead(500).end();
        });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.port, this.config.host, () => resolve());
    });
    this.server = server;
    const { host, port } = this.address!;
    this.logger.log(
      { event: 'metrics.listening', host, port },
      `metrics on http://${host}:${port}/metrics`,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
