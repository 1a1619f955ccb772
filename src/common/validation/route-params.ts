import type { Paramtype } from '@nestjs/common';
import { HTTP_CODE_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';

/**
 * The ONE place that reads Nest's internal route-argument metadata (no public API exposes which
 * handler parameter is @Body/@Query/@Param). `route-params.spec.ts` pins the shape this relies on,
 * so a Nest upgrade that changes it fails that test instead of silently skipping validation.
 */
export interface RouteParam {
  type: Extract<Paramtype, 'body' | 'query' | 'param'>;
  /** Position in the handler's parameter list. */
  index: number;
  /** `@Query('name')`: the property read; undefined for the whole object. */
  data?: string;
  /** The parameter's declared type (design:paramtypes). */
  metatype: unknown;
}

const TYPES: Partial<Record<number, RouteParam['type']>> = {
  [RouteParamtypes.BODY]: 'body',
  [RouteParamtypes.QUERY]: 'query',
  [RouteParamtypes.PARAM]: 'param',
};

/** The @Body/@Query/@Param parameters of a route handler (other decorators are left out). */
export function routeParams(controller: object, handlerName: string): RouteParam[] {
  const args: Record<string, { index: number; data?: unknown }> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handlerName) ?? {};
  const paramTypes: unknown[] =
    Reflect.getMetadata(
      'design:paramtypes',
      (controller as { prototype: object }).prototype,
      handlerName,
    ) ?? [];
  return Object.entries(args).flatMap(([key, arg]) => {
    const type = TYPES[Number(key.split(':')[0])];
    if (!type) return [];
    const data = typeof arg.data === 'string' ? arg.data : undefined;
    return [{ type, index: arg.index, data, metatype: paramTypes[arg.index] }];
  });
}

/** The success status Nest answers a handler with: its @HttpCode, else 201 for POST, 200 otherwise. */
export function routeSuccessStatus(handler: object, method: string): number {
  const declared: unknown = Reflect.getMetadata(HTTP_CODE_METADATA, handler);
  if (typeof declared === 'number') return declared;
  return method === 'POST' ? 201 : 200;
}
