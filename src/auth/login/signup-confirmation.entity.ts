import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A sign-up waiting for its mailed link; only a SHA-256 of the link's token is stored. */
@Entity('signup_confirmations')
export class SignupConfirmation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Lower-cased, like users' emails; not unique: it blocks nobody until confirmed. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ name: 'account_name', type: 'varchar', length: 200 })
  accountName: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, select: false })
  passwordHash: string;

  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true, select: false })
  tokenHash: string;

  @Column({ name: 'expires_at', type: Date })
  expiresAt: Date;

  @Column({ name: 'confirmed_at', nullable: true, type: Date })
  confirmedAt: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
