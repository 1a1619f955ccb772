import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '../roles';

/** A dashboard user of an account; the password is stored as an argon2id hash only. */
@Entity('users')
@Index('UQ_users_one_owner', ['accountId'], { unique: true, where: "role = 'owner'" })
export class User {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /** Stored lower-cased so that logins are case-insensitive on the email. */
  @Column({ type: 'varchar', length: 320, unique: true })
  email: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, select: false })
  passwordHash: string;

  /** One owner per account (a partial unique index); a column default of the least power. */
  @Column({ type: 'varchar', length: 16, default: 'viewer' })
  role: Role;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
