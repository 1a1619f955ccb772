import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import * as argon2 from 'argon2';
import { randomUUID } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { Argon2Gate } from './argon2-gate';
import { User } from './user.entity';

/** OWASP's argon2id baseline (19 MiB, 2 passes); tunable here only. */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly argon2: Argon2Gate,
  ) {}

  async build(accountId: string, email: string, password: string): Promise<User> {
    const passwordHash = await this.argon2.hash(password, ARGON2_OPTIONS);
    return this.users.create({
      id: randomUUID(),
      accountId,
      email: normalizeEmail(email),
      passwordHash,
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
}
