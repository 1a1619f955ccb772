import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One Idempotency-Key of one caller (a user or an API key) of an account: the request it named
 * (hash of route + body) and, once done, the response to replay. `status` null = the first
 * request is still running.
 */
@Entity('idempotency_keys')
@Index(['accountId', 'caller', 'idempotencyKey'], { unique: true })
export class IdempotencyRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 36 })
  accountId: string;

  /**
   * `user:<id>` or `key:<id>`: a response is replayed to the caller who made the request only
   * (another member replaying the key and body must not get, say, an admin's new key secret).
   */
  @Column({ type: 'varchar', length: 64 })
  caller: string;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 255 })
  idempotencyKey: string;

  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ type: 'integer', nullable: true })
  status: number | null;

  /** The JSON response body; null while running. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @Index()
  @Column({ name: 'expires_at', type: Date })
  expiresAt: Date;
}
