import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Role, roleForbidden, rolesAssignableBy } from '../../auth/roles';
import { Member, UsersService } from '../../auth/users/users.service';
import { ApiError } from '../../common/errors/api-error';
import { toValidationError } from '../../common/validation/validation-exception.factory';
import { ActivityLog } from '../../events/activity-log';
import { InvitationsService } from '../invitations/invitations.service';
import type { MemberActor } from '../../auth/member-actor';

export interface MemberView {
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
}

/**
 * An account's members and their roles. One owner, who alone grants or takes away owner and
 * admin and transfers ownership; admins manage developers and viewers. Every change applies to
 * the member's very next request (the auth guard reads the role per request).
 */
@Injectable()
export class MembersService {
  private readonly logger = new Logger(MembersService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly activity: ActivityLog,
    private readonly invitations: InvitationsService,
  ) {}

  async list(accountId: string): Promise<MemberView[]> {
    return (await this.users.listMembers(accountId)).map(memberView);
  }

  async get(accountId: string, userId: string): Promise<Member> {
    const user = await this.users.findMember(accountId, userId);
    if (!user) throw memberNotFound();
    return user;
  }

  /**
   * Sets a member's role; `owner` transfers ownership (the previous owner becomes admin). The
   * actor's and the member's roles are read again inside the transaction (rows locked on
   * PostgreSQL) and the update is conditional on the role read, so a change racing another one
   * (or a removal) is decided on current roles, or refused and rolled back.
   */
  async setRole(by: MemberActor, userId: string, role: Role): Promise<MemberView> {
    const change = await this.dataSource.transaction(async (manager) => {
      const { actor, actorRow, target } = await this.lockPair(by, userId, manager);
      if (target.role === role) return { target, from: role };
      if (role === 'owner') return this.transferOwnership(by, actor, actorRow, target, manager);
      if (target.role === 'owner') {
        throw toValidationError([
          {
            field: 'role',
            constraint: 'ownerTransfer',
            message:
              "The owner's role changes only by a transfer: the owner sets another member's role to owner",
          },
        ]);
      }
      this.assertMayManage(actor, target, role);
      if (!(await this.users.changeRole(by.accountId, target.id, target.role, role, manager)))
        throw memberChanged();
      await this.recordChange(by, target, manager, 'member.role_changed', {
        from: target.role,
        to: role,
      });
      await this.invitations.revokeBeyondRole(by, target, role, manager);
      return { target, from: target.role };
    });
    if (change.from !== role)
      this.logger.log(
        { accountId: by.accountId, userId, from: change.from, to: role },
        role === 'owner' ? 'Ownership transferred' : 'Member role changed',
      );
    return memberView({ ...change.target, role });
  }

  /** Removes a member; their logins end in the same transaction (refresh and access tokens). */
  async remove(by: MemberActor, userId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const { actor, target } = await this.lockPair(by, userId, manager);
      if (target.role === 'owner') {
        throw toValidationError([
          {
            field: 'userId',
            constraint: 'notOwner',
            message: 'The owner cannot be removed; transfer ownership to another member first',
          },
        ]);
      }
      this.assertMayManage(actor, target);
      await this.users.removeMember(by.accountId, target.id, manager);
      await this.recordChange(by, target, manager, 'member.removed', { role: target.role });
      await this.invitations.revokeBeyondRole(by, target, null, manager);
    });
    this.logger.log({ accountId: by.accountId, userId }, 'Member removed');
  }

  /**
   * The acting member and the target as they are now, locked for this transaction; the actor's
   * role is the current one, not the one read when the request was authenticated.
   */
  private async lockPair(
    by: MemberActor,
    userId: string,
    manager: EntityManager,
  ): Promise<{ actor: MemberActor; actorRow: Member; target: Member }> {
    const rows = await this.users.findMembersForUpdate(by.accountId, [by.userId, userId], manager);
    const actorRow = rows.get(by.userId);
    if (!actorRow) {
      throw roleForbidden(by.role, ['owner', 'admin'], {
        message: 'You are no longer a member of this account',
      });
    }
    const target = rows.get(userId);
    if (!target) throw memberNotFound();
    return { actor: { ...by, role: actorRow.role }, actorRow, target };
  }

  /** Demotes the owner to admin, then promotes the target; either update failing rolls back. */
  private async transferOwnership(
    by: MemberActor,
    actor: MemberActor,
    actorRow: Member,
    target: Member,
    manager: EntityManager,
  ): Promise<{ target: Member; from: Role }> {
    if (actor.role !== 'owner') {
      throw roleForbidden(actor.role, ['owner'], {
        message: 'Only the owner transfers ownership',
      });
    }
    // Demote first: the partial unique index allows one owner per account at any moment.
    if (!(await this.users.changeRole(by.accountId, by.userId, 'owner', 'admin', manager)))
      throw roleForbidden(actor.role, ['owner'], { message: 'Only the owner transfers ownership' });
    if (!(await this.users.changeRole(by.accountId, target.id, target.role, 'owner', manager)))
      throw memberChanged();
    await this.recordChange(by, target, manager, 'account.ownership_transferred', {
      previousOwnerUserId: by.userId,
      previousRole: target.role,
    });
    // The previous owner is an admin now: their pending admin invitations go.
    await this.invitations.revokeBeyondRole(by, actorRow, 'admin', manager);
    return { target, from: target.role };
  }

  /** An audited change to a member (the target), recorded in the change's transaction. */
  private recordChange(
    by: MemberActor,
    target: Member,
    manager: EntityManager,
    type: 'member.role_changed' | 'member.removed' | 'account.ownership_transferred',
    data: Record<string, unknown>,
  ): Promise<unknown> {
    return this.activity.record(
      {
        accountId: by.accountId,
        type,
        actor: by.actor,
        target: { type: 'user', id: target.id },
        data: { email: target.email, ...data },
        request: by.request,
      },
      manager,
    );
  }

  /** The target's role, and the new one when given, must be among those `by` may assign. */
  private assertMayManage(by: MemberActor, target: Member, role?: Role): void {
    const assignable = rolesAssignableBy(by.role);
    if (assignable.includes(target.role) && (role === undefined || assignable.includes(role)))
      return;
    throw roleForbidden(by.role, ['owner'], {
      message: `Only the owner grants or takes away the ${
        assignable.includes(target.role) ? role : target.role
      } role`,
      extra: { memberRole: target.role, ...(role ? { newRole: role } : {}) },
    });
  }
}

export function memberView(user: Pick<Member, 'id' | 'email' | 'role' | 'createdAt'>): MemberView {
  return {
    userId: user.id,
    email: user.email,
    role: user.role,
    joinedAt: user.createdAt.toISOString(),
  };
}

/** The member changed or left between the read and the update (only under a racing request). */
function memberChanged(): ApiError {
  return new ApiError('NOT_FOUND', 'This member was changed or removed by another request', {
    hint: 'GET /api/v1/account/members shows the members and roles as they are now; retry from there.',
  });
}

function memberNotFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No member with this user id in your account', {
    hint: 'GET /api/v1/account/members lists the members of your account.',
  });
}
