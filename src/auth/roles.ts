import { ApiError } from '../common/errors/api-error';
import { Scope, SCOPES } from './scopes';

/** Account member roles (design §8), most to least powerful. */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Roles that manage the account's members and invitations (and webhooks). */
export const MEMBER_MANAGERS: readonly [Role, ...Role[]] = ['owner', 'admin'];

/** HTTP methods that read only: the `viewer` role may use these and nothing else. */
export const SAFE_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

/**
 * The scopes a member may put on an API key (create or edit). A developer builds and reads but
 * does not hand out the audit trail (`audit:read` is the security team's, for a SIEM); a viewer
 * creates no keys at all.
 */
const KEY_SCOPES_BY_ROLE: Readonly<Record<Role, readonly Scope[]>> = {
  owner: SCOPES,
  admin: SCOPES,
  developer: SCOPES.filter((scope) => scope !== 'audit:read'),
  viewer: [],
};

export function keyScopesAllowed(role: Role): readonly Scope[] {
  return KEY_SCOPES_BY_ROLE[role];
}

/** The roles that may put every one of `scopes` on a key, most powerful first. */
export function rolesGranting(scopes: readonly Scope[]): Role[] {
  return ROLES.filter((role) => scopes.every((scope) => KEY_SCOPES_BY_ROLE[role].includes(scope)));
}

/**
 * Roles a member may give (invite with, or set): the owner any but `owner` itself (ownership is
 * transferred, PATCH role=owner); an admin only developer and viewer.
 */
export function rolesAssignableBy(role: Role): readonly Role[] {
  if (role === 'owner') return ['admin', 'developer', 'viewer'];
  if (role === 'admin') return ['developer', 'viewer'];
  return [];
}

/** 403 ROLE_FORBIDDEN naming the roles that may (details `{ role, required, ...extra }`). */
export function roleForbidden(
  role: Role,
  required: readonly Role[],
  refusal: { message?: string; extra?: Record<string, unknown> } = {},
): ApiError {
  const needed = either(required);
  return new ApiError(
    'ROLE_FORBIDDEN',
    refusal.message ?? `The ${role} role cannot do this; it needs ${needed}`,
    {
      hint: `Ask an owner or admin of your account for the ${needed} role, or to do this for you (a role changes with PATCH /api/v1/account/members/:userId).`,
      details: [{ role, required: [...required], ...refusal.extra }],
    },
  );
}

/** 'owner', 'owner or admin', 'owner, admin or developer'. */
export function either(roles: readonly string[]): string {
  return roles.length < 2
    ? (roles[0] ?? '')
    : `${roles.slice(0, -1).join(', ')} or ${roles[roles.length - 1]}`;
}
