import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { RequestMeta, requestMetaOf } from '../common/http/request-meta';
import { Principal, principalOf } from './principal';

/** Who calls (an API key or a signed-in member) and where the request came from. */
export interface Caller {
  principal: Principal;
  request: RequestMeta;
}

/**
 * The caller and the request's origin in one parameter, for the changes that are audited or
 * announced by webhook: `@CurrentCaller() caller: Caller` on an authenticated route.
 */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller => {
    const req = context.switchToHttp().getRequest();
    const principal = principalOf(req);
    if (!principal) throw new Error('@CurrentCaller() needs an authenticated route');
    return { principal, request: requestMetaOf(req) };
  },
);
