import { requestState } from '../request-state';

/** The caller's current window, as the rate-limit guard left it on the request. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetInSeconds: number;
}

const state = requestState<RateLimitState>('rateLimit');
export const attachRateLimit = state.attach;
export const CurrentRateLimit = state.decorator;
