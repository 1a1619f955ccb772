import type { Principal } from '../../auth/principal';
import type { Role } from '../../auth/roles';
import type { RequestMeta } from '../../common/http/request-meta';
import { ActivityActor, actorOf } from '../../events/activity-event';

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
