import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Plan } from '../../accounts/plans';

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

type RequestWithQuota = { quota?: QuotaState };

export function attachQuota(req: unknown, state: QuotaState): void {
  (req as RequestWithQuota).quota = state;
}

export const CurrentQuota = createParamDecorator(
  (_data: unknown, context: ExecutionContext): QuotaState | undefined =>
    (context.switchToHttp().getRequest() as RequestWithQuota).quota,
);
