import { CanActivate, ExecutionContext, Injectable, Paramtype } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { AppValidationPipe } from './app-validation.pipe';

interface RouteArg {
  index: number;
  data?: string;
}

const SOURCES: Partial<Record<number, { type: Paramtype; read: (req: Request) => unknown }>> = {
  [RouteParamtypes.BODY]: { type: 'body', read: (req) => req.body },
  [RouteParamtypes.QUERY]: { type: 'query', read: (req) => req.query },
  [RouteParamtypes.PARAM]: { type: 'param', read: (req) => req.params },
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
    const controller = context.getClass();
    const handler = context.getHandler();
    const args: Record<string, RouteArg> =
      Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {};
    const paramTypes: unknown[] =
      Reflect.getMetadata('design:paramtypes', controller.prototype, handler.name) ?? [];
    const request = context.switchToHttp().getRequest<Request>();

    for (const [key, arg] of Object.entries(args)) {
      const source = SOURCES[Number(key.split(':')[0])];
      const metatype = paramTypes[arg.index];
      if (!source || typeof metatype !== 'function' || isPrimitive(metatype)) continue;
      const whole = source.read(request);
      const value =
        arg.data && whole && typeof whole === 'object'
          ? (whole as Record<string, unknown>)[arg.data]
          : whole;
      await this.pipe.transform(value, {
        type: source.type,
        metatype: metatype as never,
        data: arg.data,
      });
    }
    return true;
  }
}

function isPrimitive(metatype: unknown): boolean {
  return [String, Number, Boolean, Array, Object].includes(metatype as never);
}
