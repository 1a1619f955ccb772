import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MetricsConfig } from '../config/metrics.config';
import { InFlightRequests } from '../lifecycle/in-flight-requests';
import { Metrics } from './metrics.service';

/** A JSON answer of the operators' listener (GET only): its status code and body. */
export type OperatorRoute = () => Promise<{ status: number; body: unknown }>;

/**
 * GET /metrics on its own listener (METRICS_HOST:METRICS_PORT, loopback by default), apart from
 * the API's port: a load balancer or a public ingress in front of the API never exposes it, and
 * Prometheus scrapes it from beside the process. Off when METRICS_PORT is unset. Other modules add
 * operator-only JSON routes to it (GET /health/ready with its details, whatever HEALTH_DETAILS).
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;
  private readonly routes = new Map<string, OperatorRoute>();

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

  /** Serves `path` (GET) on this listener with `answer`'s JSON. */
  route(path: string, answer: OperatorRoute): void {
    this.routes.set(path, answer);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.port === undefined) return;
    this.metrics.inFlight.set(0);
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      const route = this.routes.get(path);
      if (req.method === 'GET' && route) {
        route()
          .then(({ status, body }) =>
            res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
          )
          .catch((error: unknown) => {
            this.logger.error({ err: (error as Error).message, path }, 'operator route failed');
            res.writeHead(500).end();
          });
        return;
      }
      if (req.method !== 'GET' || path !== '/metrics') {
        const paths = ['/metrics', ...this.routes.keys()].map((p) => `GET ${p}`).join(', ');
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${paths}\n`);
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
