import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** Where a request came from, as the audit trail records it (no credentials). */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  /** The X-Request-Id echoed on the response (logging.module.ts). */
  requestId: string | null;
}

const USER_AGENT_MAX = 512;

export function requestMetaOf(req: Request): RequestMeta {
  const agent = req.headers['user-agent'];
  return {
    ip: req.ip ?? req.socket?.remoteAddress ?? null,
    userAgent: typeof agent === 'string' ? agent.slice(0, USER_AGENT_MAX) : null,
    requestId: (req as Request & { id?: string }).id ?? null,
  };
}

/** The request's origin for an audit or webhook event: `@ReqMeta() meta: RequestMeta`. */
export const ReqMeta = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RequestMeta =>
    requestMetaOf(context.switchToHttp().getRequest<Request>()),
);
