import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { RequestMeta, requestMetaOf } from '../common/http/request-meta';
import { ActivityActor, actorOf } from '../events/activity-event';
import { Principal, principalOf } from './principal';
import type { Role } from './roles';

/** A dashboard member acting on their account, with where the request came from. */
export interface MemberActor {
  accountId: string;
  userId: string;
  role: Role;
  actor: ActivityActor;
  request: RequestMeta;
}

/** For routes behind @RequireDashboardLogin(): the guard has set the user and their role. */
export function memberActor(principal: Principal, request: RequestMeta): MemberActor {
  if (!principal.userId || !principal.role)
    throw new Error('memberActor needs a dashboard (JWT) principal');
  return {
    accountId: principal.accountId,
    userId: principal.userId,
    role: principal.role,
    actor: actorOf(principal),
    request,
  };
}

/**
 * The signed-in member and the request's origin in one parameter, for the dashboard's audited
 * changes: `@CurrentMember() member: MemberActor` (the routes are behind @RequireDashboardLogin()).
 */
export const CurrentMember = createParamDecorator(
  (_data: unknown, context: ExecutionContext): MemberActor => {
    const req = context.switchToHttp().getRequest();
    const principal = principalOf(req);
    if (!principal) throw new Error('@CurrentMember() needs an authenticated route');
    return memberActor(principal, requestMetaOf(req));
  },
);
