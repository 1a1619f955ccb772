import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiError } from '../common/errors/api-error';
import { MetricsConfig } from '../config/metrics.config';
import { GracefulShutdownService } from '../lifecycle/graceful-shutdown.service';
import { Public } from '../common/auth/public.decorator';
import { Operation } from '../common/openapi/operation.decorator';
import { MetricsServer } from '../metrics/metrics-server';
import { LivenessResponse, ReadinessResponse } from './dto/health.responses';
import { ReadinessRegistry } from './readiness.registry';

/** Below a load balancer's usual 2-3 s check timeout, with the chain probe running beside it. */
const DATABASE_PING_TIMEOUT_MS = 1_500;

type ComponentInfo = { status: string; reason?: unknown; message?: unknown };

/** A component that is down or degraded, as the minimal answer names it (no host, address or balance). */
const PUBLIC_REASONS: Record<string, string> = {
  database: "this instance's database does not answer",
  chain:
    'the chain RPC is unreachable, slow or serves another chain: requests that need the chain answer 503 CHAIN_UNAVAILABLE',
  redis: 'Redis is unavailable: rate limits and quotas count per instance',
};

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly registry: ReadinessRegistry,
    private readonly shutdown: GracefulShutdownService,
    private readonly config: MetricsConfig,
    db: TypeOrmHealthIndicator,
    metricsServer: MetricsServer,
  ) {
    // The only `down` component: an instance whose database does not answer cannot serve.
    registry.register(() => db.pingCheck('database', { timeout: DATABASE_PING_TIMEOUT_MS }));
    // Operators always read the details beside the metrics (METRICS_PORT), never on the API port
    // unless HEALTH_DETAILS=true.
    metricsServer.route('/health/ready', () =>
      this.readiness(true).then(
        (body) => ({ status: 200, body }),
        (error: unknown) => {
          if (!(error instanceof ApiError)) throw error;
          return {
            status: error.status,
            body: { status: 'error', message: error.message, details: error.options.details ?? [] },
          };
        },
      ),
    );
  }

  @Get('live')
  @Operation({
    id: 'getLiveness',
    summary: 'Liveness: the process is up',
    ok: LivenessResponse,
    errors: ['INTERNAL_ERROR'],
  })
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @Operation({
    id: 'getReadiness',
    summary: 'Readiness: this instance can serve (booted, not draining, its database answers)',
    description:
      "For load balancer health checks. 200 while this instance can serve: `status` is `ok`, or `degraded` with a `reason` when a shared dependency is impaired: the chain RPC slow or unreachable (requests that need the chain answer 503 CHAIN_UNAVAILABLE meanwhile), Redis down (rate limits fall back to this instance), or the attester unable to pay for gas (activations fail, session revocations are owed until it is funded). SERVICE_UNAVAILABLE (503) only when this instance is draining (after SIGTERM) or its own database does not answer, naming the failed components in details ({component, status}). By default the answer is only that: each component's details (addresses, balances, RPC hosts) are served with HEALTH_DETAILS=true, and always on the metrics listener (METRICS_PORT) at GET /health/ready. Answers within about 2 s (each probe has its own timeout).",
    ok: ReadinessResponse,
    errors: ['SERVICE_UNAVAILABLE'],
  })
  ready() {
    return this.readiness(this.config.healthDetails);
  }

  private async readiness(details: boolean) {
    if (this.shutdown.isDraining) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Not ready: shutting down', {
        hint: 'This instance is draining; send requests to another instance.',
      });
    }
    let result: HealthCheckResult;
    try {
      result = await this.health.check(this.registry.all());
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      const answer = err.getResponse() as { error?: Record<string, ComponentInfo> };
      const failed = Object.entries(answer.error ?? {}).map(([component, info]) => ({
        component,
        status: info.status,
        ...(details && { message: typeof info.message === 'string' ? info.message : 'down' }),
      }));
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        `Not ready: ${failed.map((f) => f.component).join(', ')}`,
        { details: failed, hint: readinessHint(failed.map((f) => f.component)) },
      );
    }
    if (details) return result;
    const reason = degradedReason(result.details as Record<string, ComponentInfo>);
    return result.status === 'degraded' && reason
      ? { status: result.status, reason }
      : { status: result.status };
  }
}

/** The degraded components' reasons in words fit for anyone (a component's own `reason`, else ours). */
function degradedReason(components: Record<string, ComponentInfo>): string | undefined {
  const reasons = Object.entries(components)
    .filter(([, info]) => info.status === 'degraded')
    .map(([component, info]) =>
      typeof info.reason === 'string'
        ? `${component}: ${info.reason}`
        : `${component}: ${PUBLIC_REASONS[component] ?? 'degraded'}`,
    );
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

const COMPONENT_NAMES: Record<string, string> = {
  database: 'the database',
  chain: 'the chain RPC',
  redis: 'Redis',
};

/** Names what is down: the catalogue's default hint speaks of the database only. */
export function readinessHint(components: string[]): string {
  const names = components.map((component) => COMPONENT_NAMES[component] ?? component);
  return `${names.join(' and ')} ${names.length > 1 ? 'are' : 'is'} unavailable; retry shortly. details lists each failed component.`;
}
