import { Injectable, Logger } from '@nestjs/common';
import { CredentialAttempts } from '../../auth/throttling/credential-attempts';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull, MoreThan, Repository } from 'typeorm';
import { Role, roleForbidden, rolesAssignableBy } from '../../auth/roles';
import { normalizeEmail, UsersService } from '../../auth/users/users.service';
import { ApiError } from '../../common/errors/api-error';
import type { RequestMeta } from '../../common/http/request-meta';
import type { MemberActor } from '../../auth/member-actor';
import { toValidationError } from '../../common/validation/validation-exception.factory';
import { AccountsConfig } from '../../config/accounts.config';
import { ActivityLog } from '../../events/activity-log';
import { Mailer } from '../../mail/mailer';
import { Invitation } from './invitation.entity';
import { generateInvitationToken, hashInvitationToken } from './invitation-token';

const HOUR_MS = 60 * 60 * 1000;
/** Pending invitations listed at most (newest first). */
const PENDING_LISTED_MAX = 200;

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invitedByUserId: string | null;
  expiresAt: string;
  createdAt: string;
}

export interface CreatedInvitation extends InvitationView {
  /** Mailed to the invitee; false in demo mode without SMTP_URL, where token and link are here. */
  mailed: boolean;
  token?: string;
  link?: string;
}

/** The answer to an acceptance: the same whether or not the email already had a login. */
export interface AcceptedInvitation {
  email: string;
  role: Role;
  message: string;
  next: string;
}

/** Invitations to join an account: created by its owner or admins, accepted once, expiring. */
@Injectable()
export class InvitationsService {
  private readonly logger = new Logger(InvitationsService.name);

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(Invitation) private readonly invitations: Repository<Invitation>,
    private readonly users: UsersService,
    private readonly activity: ActivityLog,
    private readonly mailer: Mailer,
    private readonly credentialAttempts: CredentialAttempts,
    private readonly config: AccountsConfig,
  ) {}

  /**
   * The token is mailed to the invitee (proving control of the address is accepting it); only in
   * demo mode without SMTP is it in this answer instead. A new invitation replaces a pending one
   * for that email. Whether the email has a login elsewhere changes nothing here.
   */
  async invite(by: MemberActor, input: { email: string; role: Role }): Promise<CreatedInvitation> {
    if (!this.config.invitationsEnabled) throw invitationsOff();
    if (!rolesAssignableBy(by.role).includes(input.role)) {
      throw roleForbidden(by.role, ['owner'], {
        message: `The ${by.role} role cannot invite an ${input.role}; it needs owner`,
        extra: { invitedRole: input.role },
      });
    }
    const email = normalizeEmail(input.email);
    const existing = await this.users.findByEmail(email);
    if (existing?.accountId === by.accountId) {
      throw toValidationError([
        { field: 'email', constraint: 'notMember', message: `${email} is already a member` },
      ]);
    }
    const token = generateInvitationToken();
    const now = new Date();
    const invitation = this.invitations.create({
      id: randomUUID(),
      accountId: by.accountId,
      email,
      role: input.role,
      tokenHash: hashInvitationToken(token),
      invitedByUserId: by.userId,
      expiresAt: new Date(now.getTime() + this.config.invitationTtlHours * HOUR_MS),
      acceptedAt: null,
      acceptedUserId: null,
      revokedAt: null,
      createdAt: now,
    });
    const link = this.linkFor(token);
    // Mailed first: a mail server refusing it leaves no invitation behind (503).
    await this.mailer.send({
      to: email,
      subject: 'You are invited to an account',
      link,
      text: [
        `You are invited to join an account as ${input.role}.`,
        `To accept, open this link and choose a password, before ${invitation.expiresAt.toISOString()}:`,
        '',
        link,
        '',
        'It works once. If you did not expect it, ignore this message: nothing exists until the link is followed.',
      ].join('\n'),
    });
    await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(Invitation);
      await repo.update(
        { accountId: by.accountId, email, acceptedAt: IsNull(), revokedAt: IsNull() },
        { revokedAt: now },
      );
      await repo.insert(invitation);
      await this.activity.record(
        {
          accountId: by.accountId,
          type: 'member.invited',
          actor: by.actor,
          target: { type: 'invitation', id: invitation.id },
          data: { email, role: input.role, expiresAt: invitation.expiresAt.toISOString() },
          request: by.request,
        },
        manager,
      );
    });
    this.logger.log({ accountId: by.accountId, invitationId: invitation.id }, 'Member invited');
    if (this.mailer.delivers) return { ...view(invitation), mailed: true };
    return { ...view(invitation), mailed: false, token, link };
  }

  /** Pending (neither accepted, revoked nor expired), newest first. */
  async listPending(accountId: string): Promise<InvitationView[]> {
    const rows = await this.invitations.find({
      where: {
        accountId,
        acceptedAt: IsNull(),
        revokedAt: IsNull(),
        expiresAt: MoreThan(new Date()),
      },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: PENDING_LISTED_MAX,
    });
    return rows.map(view);
  }

  /** Revokes a pending invitation of the account: its token stops working. */
  async revoke(by: MemberActor, id: string): Promise<InvitationView> {
    const { accountId } = by;
    const row = await this.invitations.findOneBy({
      id,
      accountId,
      acceptedAt: IsNull(),
      revokedAt: IsNull(),
    });
    if (!row) throw invitationNotFound();
    const revokedAt = new Date();
    await this.dataSource.transaction(async (manager) => {
      const result = await manager
        .getRepository(Invitation)
        .update({ id, accountId, acceptedAt: IsNull(), revokedAt: IsNull() }, { revokedAt });
      // Accepted or revoked in between: nothing changed, nothing to record.
      if (!result.affected) throw invitationNotFound();
      await this.activity.record(
        {
          accountId,
          type: 'member.invitation_revoked',
          actor: by.actor,
          target: { type: 'invitation', id },
          data: { email: row.email, role: row.role },
          request: by.request,
        },
        manager,
      );
    });
    row.revokedAt = revokedAt;
    return view(row);
  }

  /**
   * Rights die with the person: when a member is removed (`newRole` null) or their role changes,
   * their pending invitations with a role the new one could not give are revoked, each recorded as
   * `member.invitation_revoked` with the reason, inside the caller's transaction.
   */
  async revokeBeyondRole(
    by: MemberActor,
    inviter: { id: string; email: string },
    newRole: Role | null,
    manager: EntityManager,
  ): Promise<number> {
    const allowed = newRole ? rolesAssignableBy(newRole) : [];
    const pending = await manager.getRepository(Invitation).find({
      where: {
        accountId: by.accountId,
        invitedByUserId: inviter.id,
        acceptedAt: IsNull(),
        revokedAt: IsNull(),
      },
    });
    const revokedAt = new Date();
    let revoked = 0;
    for (const row of pending.filter((invitation) => !allowed.includes(invitation.role))) {
      const result = await manager
        .getRepository(Invitation)
        .update({ id: row.id, acceptedAt: IsNull(), revokedAt: IsNull() }, { revokedAt });
      if (!result.affected) continue;
      revoked += 1;
      await this.activity.record(
        {
          accountId: by.accountId,
          type: 'member.invitation_revoked',
          actor: by.actor,
          target: { type: 'invitation', id: row.id },
          data: {
            email: row.email,
            role: row.role,
            reason: newRole ? 'inviter_role_changed' : 'inviter_removed',
            invitedByUserId: inviter.id,
            invitedByEmail: inviter.email,
            ...(newRole ? { inviterRole: newRole } : {}),
          },
          request: by.request,
        },
        manager,
      );
    }
    return revoked;
  }

  /**
   * Creates the invited user in the inviting account with the invited role, unless the email has a
   * login by now (an email belongs to one account): the answer is the same either way, after the
   * same argon2id work, so acceptance tells nobody which emails have logins. Single use: the
   * invitation is claimed with a conditional update in the user's transaction. Every attempt counts
   * like a login: toward the client IP's failed-login limit and its token's 10 a minute.
   */
  async accept(token: string, password: string, request: RequestMeta): Promise<AcceptedInvitation> {
    const ip = request.ip ?? undefined;
    await this.credentialAttempts.admit({ token, purpose: 'invitation' }, ip, true);
    const invitation = await this.invitations.findOneBy({
      tokenHash: hashInvitationToken(token),
      acceptedAt: IsNull(),
      revokedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
    });
    if (!invitation) throw invitationNotFound();
    const answer: AcceptedInvitation = {
      email: invitation.email,
      role: invitation.role,
      message:
        'If this email had no login yet, it now has one in the inviting account, with this role: log in with POST /auth/login. An email belongs to one account.',
      next: '/auth/login',
    };
    const user = await this.users.build(
      invitation.accountId,
      invitation.email,
      password,
      invitation.role,
    );
    const taken = (await this.users.findByEmail(invitation.email)) !== null;
    try {
      await this.dataSource.transaction(async (manager) => {
        const claimed = await manager
          .getRepository(Invitation)
          .update(
            { id: invitation.id, acceptedAt: IsNull(), revokedAt: IsNull() },
            { acceptedAt: new Date(), acceptedUserId: taken ? null : user.id },
          );
        if (claimed.affected !== 1) throw invitationNotFound();
        if (taken) return;
        await this.users.insert(user, manager);
        await this.activity.record(
          {
            accountId: invitation.accountId,
            type: 'member.joined',
            actor: { type: 'user', id: user.id },
            target: { type: 'user', id: user.id },
            data: { email: user.email, role: user.role, invitationId: invitation.id },
            request,
          },
          manager,
        );
      });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // The same email took a login elsewhere in the meantime: the unique email refused the insert.
      if (await this.users.findByEmail(invitation.email)) return answer;
      throw error;
    }
    this.logger.log(
      { accountId: invitation.accountId, invitationId: invitation.id, joined: !taken },
      taken
        ? 'Invitation used by an email that has a login: nothing created'
        : 'Invitation accepted',
    );
    return answer;
  }

  private linkFor(token: string): string {
    return `${this.config.publicBaseUrl ?? ''}/dashboard/#accept-invitation=${token}`;
  }
}

function view({
  id,
  email,
  role,
  invitedByUserId,
  expiresAt,
  createdAt,
}: Invitation): InvitationView {
  return {
    id,
    email,
    role,
    invitedByUserId,
    expiresAt: expiresAt.toISOString(),
    createdAt: createdAt.toISOString(),
  };
}

export function invitationNotFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No pending invitation with this token or id', {
    hint: 'Invitations are single use and expire; ask an owner or admin of the account for a new one (POST /api/v1/account/invitations).',
  });
}

function invitationsOff(): ApiError {
  return new ApiError('NOT_FOUND', 'Invitations are off on this service', {
    hint: 'The operator turns them on with INVITATIONS_ENABLED (in production they need SMTP_URL, to mail the link).',
  });
}
