import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppValidationPipe } from './app-validation.pipe';
import { RouteParam, routeParams } from './route-params';

const READ: Record<RouteParam['type'], (req: Request) => unknown> = {
  body: (req) => req.body,
  query: (req) => req.query,
  param: (req) => req.params,
};

/**
 * Nest runs guards before pipes, but the spec orders validation before auth: a malformed body gets
 * 400 even without credentials. This guard is registered first, ahead of the auth guard, and runs
 * the global ValidationPipe on @Body/@Query/@Param DTOs; the pipe reuses its results later.
 */
@Injectable()
export class RequestValidationGuard implements CanActivate {
  constructor(private readonly pipe: AppValidationPipe) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    for (const param of routeParams(context.getClass(), context.getHandler().name)) {
      const { type, data, metatype } = param;
      if (typeof metatype !== 'function' || isPrimitive(metatype)) continue;
      const whole = READ[type](request);
      const value =
        data && whole && typeof whole === 'object'
          ? (whole as Record<string, unknown>)[data]
          : whole;
      await this.pipe.transform(value, { type, metatype: metatype as never, data });
    }
    return true;
  }
}

function isPrimitive(metatype: unknown): boolean {
  return [String, Number, Boolean, Array, Object].includes(metatype as never);
}
