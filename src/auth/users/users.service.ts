import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import * as argon2 from 'argon2';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, Repository } from 'typeorm';
import type { Role } from '../roles';
import { AuthSession } from '../tokens/auth-session.entity';
import { Argon2Gate } from './argon2-gate';
import { User } from './user.entity';

/** OWASP's argon2id baseline (19 MiB, 2 passes); tunable here only. */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** The password rule of every user, however created (CLI, invitation, sign-up). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

/** A user as other modules see it (never the password hash). */
export type Member = Pick<User, 'id' | 'accountId' | 'email' | 'role' | 'createdAt'>;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly argon2: Argon2Gate,
  ) {}

  /** A user ready to insert; the first user of a new account is its owner. */
  async build(
    accountId: string,
    email: string,
    password: string,
    role: Role = 'owner',
  ): Promise<User> {
    return this.buildHashed(accountId, email, await this.hashPassword(password), role);
  }

  /** An argon2id hash of a password, as users' rows store it. */
  hashPassword(password: string): Promise<string> {
    return this.argon2.hash(password, ARGON2_OPTIONS);
  }

  /** A user row for a password hashed earlier (a sign-up confirmed after its request). */
  buildHashed(accountId: string, email: string, passwordHash: string, role: Role = 'owner'): User {
    return this.users.create({
      id: randomUUID(),
      accountId,
      email: normalizeEmail(email),
      passwordHash,
      role,
      // Set here, in milliseconds: members are listed in joining order (the column default
      // has whole seconds on SQLite).
      createdAt: new Date(),
    });
  }

  /** Inserts a built user, inside the caller's transaction when given its manager. */
  async insert(user: User, manager?: EntityManager): Promise<void> {
    await (manager ? manager.getRepository(User) : this.users).insert(user);
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findOneBy({ email: normalizeEmail(email) });
  }

  /** The only read that loads the password hash (it is `select: false` everywhere else). */
  findByEmailWithPasswordHash(email: string): Promise<User | null> {
    return this.users
      .createQueryBuilder('user')
      .addSelect('user.passwordHash')
      .where('user.email = :email', { email: normalizeEmail(email) })
      .getOne();
  }

  findById(id: string): Promise<User | null> {
    return this.users.findOneBy({ id });
  }

  /** A member of this account; another account's user is indistinguishable from none. */
  findMember(accountId: string, userId: string, manager?: EntityManager): Promise<User | null> {
    return (manager ? manager.getRepository(User) : this.users).findOneBy({
      id: userId,
      accountId,
    });
  }

  /** The account's members, oldest first (the owner who created it comes first). */
  listMembers(accountId: string): Promise<User[]> {
    return this.users.find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * The role of a user in an account, read on every dashboard request (a primary-key read): a
   * role change or a removal applies to the very next request. null: no longer a member.
   */
  async roleOf(userId: string, accountId: string): Promise<Role | null> {
    const row = await this.users.findOne({
      where: { id: userId, accountId },
      select: { id: true, role: true },
    });
    return row?.role ?? null;
  }

  /**
   * Members read inside the caller's transaction to decide a change on: on PostgreSQL the rows
   * stay locked (FOR UPDATE, taken in id order so two changes cannot deadlock) until it ends;
   * SQLite serialises write transactions. Members missing from the result are gone.
   */
  async findMembersForUpdate(
    accountId: string,
    userIds: readonly string[],
    manager: EntityManager,
  ): Promise<Map<string, User>> {
    const postgres = manager.connection.options.type === 'postgres';
    const rows = await manager.getRepository(User).find({
      where: { id: In([...userIds]), accountId },
      order: { id: 'ASC' },
      ...(postgres ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Changes a member's role only while it is still `from`; false when the member is gone or their
   * role changed meanwhile (the caller rolls back).
   */
  async changeRole(
    accountId: string,
    userId: string,
    from: Role,
    to: Role,
    manager: EntityManager,
  ): Promise<boolean> {
    const changed = await manager
      .getRepository(User)
      .update({ id: userId, accountId, role: from }, { role: to });
    return changed.affected === 1;
  }

  /**
   * Removes a member: their user row goes (the email may be invited again) and every login of
   * theirs is revoked in the same transaction, so their refresh and access tokens stop at once.
   */
  async removeMember(accountId: string, userId: string, manager: EntityManager): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(AuthSession)
      .set({ revokedAt: new Date(), revokedReason: 'member_removed' })
      .where('user_id = :userId AND account_id = :accountId AND revoked_at IS NULL', {
        userId,
        accountId,
      })
      .execute();
    await manager.getRepository(User).delete({ id: userId, accountId });
  }
}
