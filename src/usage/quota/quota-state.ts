import type { Plan } from '../../accounts/plans';
import { requestState } from '../request-state';

/** The caller's month, as the quota guard left it on the request (after counting this request). */
export interface QuotaState {
  plan: Plan;
  /** null: unlimited. */
  limit: number | null;
  used: number;
  /** null: unlimited. */
  remaining: number | null;
  /** ISO 8601: the first instant of the next UTC month. */
  resetsAt: string;
}

const state = requestState<QuotaState>('quota');
export const attachQuota = state.attach;
export const CurrentQuota = state.decorator;
