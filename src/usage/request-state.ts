import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/**
 * The guards' values, on one object per request. `req[property] = value` is a keyed store: V8
 * (11.3) turns an object with more than 12 out-of-object properties, as every Express request
 * has, into a dictionary on such a store, with a normalized hidden class that it takes from a
 * small cache or, in a full bench run 33,000 times, builds anew in the old generation: 1-2 KB
 * per request and most of the full collections left in the half-load runs (`npm run bench`;
 * docs/architecture.md, "Why hand-written"). A named property holding a plain object keeps the request as it
 * was (request-state.spec.ts).
 */
interface WithGuardState {
  guardState?: Record<string, unknown>;
}

/**
 * A value a guard leaves on the request for the handler (the rate-limit window, the month's
 * quota): its setter and its parameter decorator, under one name.
 */
export function requestState<T>(property: string) {
  const read = (req: unknown): T | undefined =>
    (req as WithGuardState).guardState?.[property] as T | undefined;
  return {
    attach(req: unknown, value: T): void {
      const r = req as WithGuardState;
      (r.guardState ??= {})[property] = value;
    },
    read,
    decorator: createParamDecorator((_data: unknown, context: ExecutionContext): T | undefined =>
      read(context.switchToHttp().getRequest()),
    ),
  };
}
