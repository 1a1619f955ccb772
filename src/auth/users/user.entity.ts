import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A dashboard user of an account; the password is stored as an argon2id hash only. */
@Entity('users')
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

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
