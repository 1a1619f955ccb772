import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express } from 'express';

/** The routes integrators call on every trade: builds, quotes, the config, relays, positions. */
export const HOT_ROUTE_PREFIX = '/api/v1/defi/';

/** What this needs of a layer of Express's router (router 2.x `Layer`). */
export interface RouteLayer {
  /** A route's path, or the path a middleware is mounted at ('/' for any). */
  rawPath?: unknown;
  route?: { path: string };
}

/**
 * Express tries a request against each layer of its router in turn, and Nest registers routes
 * module by module: a swap build was tried against some 60 routes (sign-in, keys, members,
 * onboarding...) before its own, about 10 µs a request on the bench machine (bench/build-cost.md,
 * "The protected request's floor"). Once Nest has registered every route, the routes under
 * `prefix` move ahead of the layers before them that cannot match a path under it, each group
 * keeping its order.
 *
 * This cannot change which layer answers or sees a request: a route moves only past layers whose
 * path's fixed start (up to its first parameter or wildcard, compared without case, as Express
 * compares) differs from `prefix` at some character. A middleware for every path (the usage meter,
 * the request log) or a route beginning with a parameter (`/api/v1/:area/...`) is a wall they stay
 * behind; routes of the second kind are returned, so that the start can name them.
 */
export function hotRoutesFirst(stack: RouteLayer[], prefix = HOT_ROUTE_PREFIX): string[] {
  const hot = (layer: RouteLayer) => layer.route?.path.toLowerCase().startsWith(prefix) === true;
  const walls: string[] = [];
  let from = 0;
  for (let i = 0; i <= stack.length; i += 1) {
    const wall = i === stack.length || (!hot(stack[i]) && couldMatchUnder(stack[i], prefix));
    if (!wall) continue;
    if (i < stack.length && stack[i].route && stack.slice(i + 1).some(hot))
      walls.push(stack[i].route!.path);
    const segment = stack.slice(from, i);
    stack.splice(from, segment.length, ...segment.filter(hot), ...segment.filter((l) => !hot(l)));
    from = i + 1;
  }
  return walls;
}

/** Whether a layer may match some path under `prefix` (a path it does not spell out: yes). */
function couldMatchUnder(layer: RouteLayer, prefix: string): boolean {
  const paths = Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath];
  return paths.some((path) => {
    if (typeof path !== 'string') return true;
    const fixed = path.toLowerCase().split(/[:*{(\\]/)[0];
    return prefix.startsWith(fixed) || fixed.startsWith(prefix);
  });
}

/** Runs hotRoutesFirst on the app's router once Nest has registered the routes. */
@Injectable()
export class HotRoutesFirst implements OnApplicationBootstrap {
  private readonly logger = new Logger(HotRoutesFirst.name);

  constructor(private readonly host: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const app = this.host.httpAdapter?.getInstance<Express>();
    const stack = (app?.router as { stack?: RouteLayer[] } | undefined)?.stack;
    if (!stack) return;
    const barriers = hotRoutesFirst(stack);
    if (barriers.length > 0)
      this.logger.warn(
        { route: barriers[0] },
        `The routes under ${HOT_ROUTE_PREFIX} stay behind a route that may match them`,
      );
  }
}
