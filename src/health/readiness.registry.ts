import { Injectable } from '@nestjs/common';
import type { HealthIndicatorFunction } from '@nestjs/terminus';

/**
 * Feature modules register what readiness depends on (database here; Redis and the chain RPC
 * from their own modules), so /health/ready grows without the health module knowing them.
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks: HealthIndicatorFunction[] = [];

  register(check: HealthIndicatorFunction): void {
    this.checks.push(check);
  }

  all(): HealthIndicatorFunction[] {
    return [...this.checks];
  }
}
