import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiError } from '../common/errors/api-error';
import { GracefulShutdownService } from '../lifecycle/graceful-shutdown.service';
import { Public } from '../common/auth/public.decorator';
import { Operation } from '../common/openapi/operation.decorator';
import { LivenessResponse, ReadinessResponse } from './dto/health.responses';
import { ReadinessRegistry } from './readiness.registry';

/** Below a load balancer's usual 2-3 s check timeout, with the chain probe running beside it. */
const DATABASE_PING_TIMEOUT_MS = 1_500;

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly registry: ReadinessRegistry,
    private readonly shutdown: GracefulShutdownService,
    db: TypeOrmHealthIndicator,
  ) {
    // The only `down` component: an instance whose database does not answer cannot serve.
    registry.register(() => db.pingCheck('database', { timeout: DATABASE_PING_TIMEOUT_MS }));
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
      'For load balancer health checks. 200 while this instance can serve: `status` is `ok`, or `degraded` when a shared dependency (the chain RPC, Redis) is slow or unreachable; `details` says which and what it means (requests that need the chain answer 503 CHAIN_UNAVAILABLE meanwhile; rate limits fall back to this instance). SERVICE_UNAVAILABLE (503) only when this instance is draining (after SIGTERM) or its own database does not answer, with the failed components in details ({component, status, message}). Answers within about 2 s (each probe has its own timeout).',
    ok: ReadinessResponse,
    errors: ['SERVICE_UNAVAILABLE'],
  })
  async ready() {
    if (this.shutdown.isDraining) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Not ready: shutting down', {
        hint: 'This instance is draining; send requests to another instance.',
      });
    }
    try {
      return await this.health.check(this.registry.all());
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      const result = err.getResponse() as {
        error?: Record<string, { status: string; message?: string }>;
      };
      const failed = Object.entries(result.error ?? {}).map(([component, info]) => ({
        component,
        status: info.status,
        message: info.message ?? 'down',
      }));
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        `Not ready: ${failed.map((f) => f.component).join(', ')}`,
        { details: failed, hint: readinessHint(failed.map((f) => f.component)) },
      );
    }
  }
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
