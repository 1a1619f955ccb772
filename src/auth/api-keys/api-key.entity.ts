import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Scope } from '../scopes';
import type { ApiKeyMode } from './api-key-format';

/** An account's API key. Only a lookup prefix is stored in clear; the key itself as SHA-256. */
@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Index()
  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  @Column({ name: 'created_by_user_id', type: 'varchar', length: 36, nullable: true })
  createdByUserId: string | null;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 4 })
  mode: ApiKeyMode;

  @Column({ name: 'lookup_prefix', type: 'varchar', length: 12, unique: true })
  lookupPrefix: string;

  @Column({ name: 'key_hash', type: 'varchar', length: 64, select: false })
  keyHash: string;

  @Column({ type: 'simple-array' })
  scopes: Scope[];

  @Column({ type: 'boolean' })
  active: boolean;

  @Column({ name: 'expires_at', nullable: true, type: Date })
  expiresAt: Date | null;

  @Column({ name: 'last_used_at', nullable: true, type: Date })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', nullable: true, type: Date })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;
}
