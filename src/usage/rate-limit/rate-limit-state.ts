import { requestState } from '../request-state';
import type { ThrottlerStorageRecord } from './memory-fixed-window.storage';

/** The caller's current window, as the rate-limit guard left it on the request. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetInSeconds: number;
}

const state = requestState<RateLimitState>('rateLimit');
export const attachRateLimit = state.attach;
export const CurrentRateLimit = state.decorator;

/**
 * The window as counted by the quota guard, in the same Redis round trip as the month
 * (MonthlyQuotaCounter.consume); the rate-limit guard then counts nothing more. Absent when the
 * quota was counted in memory (no Redis, or its outage): the rate-limit storage counts.
 */
const precounted = requestState<ThrottlerStorageRecord & { limit: number }>('rateLimitCounted');
export const attachCountedRateLimit = precounted.attach;
export const countedRateLimitOf = precounted.read;
