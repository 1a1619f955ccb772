import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/**
 * A value a guard leaves on the request for the handler (the rate-limit window, the month's
 * quota): its setter and its parameter decorator, under one property name.
 */
export function requestState<T>(property: string) {
  return {
    attach(req: unknown, value: T): void {
      (req as Record<string, unknown>)[property] = value;
    },
    decorator: createParamDecorator(
      (_data: unknown, context: ExecutionContext): T | undefined =>
        (context.switchToHttp().getRequest() as Record<string, unknown>)[property] as T | undefined,
    ),
  };
}
