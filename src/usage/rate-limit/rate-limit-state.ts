import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The caller's current window, as the rate-limit guard left it on the request. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetInSeconds: number;
}

type RequestWithRateLimit = { rateLimit?: RateLimitState };

export function attachRateLimit(req: unknown, state: RateLimitState): void {
  (req as RequestWithRateLimit).rateLimit = state;
}

export const CurrentRateLimit = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RateLimitState | undefined =>
    (context.switchToHttp().getRequest() as RequestWithRateLimit).rateLimit,
);
