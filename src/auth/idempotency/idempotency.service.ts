import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { LessThan, Repository } from 'typeorm';
import { ChainResetRegistry, clearingAll } from '../../chain/instance/chain-reset.registry';
import { isUniqueViolation } from '../../common/database/unique-violation';
import { JwtSecret } from '../tokens/jwt-secret';
import { IdempotencyRecord } from './idempotency-record.entity';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export type IdempotencyClaim =
  | { outcome: 'execute'; id: string }
  | { outcome: 'replay'; status: number; body: unknown }
  | { outcome: 'mismatch' }
  | { outcome: 'running' };

/** Whose Idempotency-Keys a record belongs to: one caller (user or API key) of one account. */
export interface IdempotencyScope {
  accountId: string;
  /** `user:<id>` or `key:<id>` (idempotencyCaller). */
  caller: string;
}

/** The idempotency_keys table: claim a key (unique per caller), complete it, or release it. */
@Injectable()
export class IdempotencyService {
  /**
   * Stored responses can carry secrets (a new API key is shown once): they are kept encrypted
   * (AES-256-GCM, key derived from the service secret), so a database dump does not reveal them.
   */
  private readonly sealKey: Buffer;

  constructor(
    @InjectRepository(IdempotencyRecord) private readonly records: Repository<IdempotencyRecord>,
    secret: JwtSecret,
    resets: ChainResetRegistry,
  ) {
    // A stored answer may name a transaction or session of the old chain instance: a retry after
    // a new one runs anew, as after the 24 h a key is kept.
    resets.register('stored idempotent answers', clearingAll(IdempotencyRecord));
    this.sealKey = Buffer.from(hkdfSync('sha256', secret.value, '', 'idempotency-responses', 32));
  }

  /**
   * Inserts the in-progress marker; the unique (account, caller, key) index makes exactly one of
   * two concurrent duplicates win. The loser, and every later request, reads what the winner stored.
   */
  async claim(
    scope: IdempotencyScope,
    key: string,
    requestHash: string,
  ): Promise<IdempotencyClaim> {
    const id = randomUUID();
    try {
      await this.records.insert({
        id,
        accountId: scope.accountId,
        caller: scope.caller,
        idempotencyKey: key,
        requestHash,
        status: null,
        responseBody: null,
        expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
      });
      return { outcome: 'execute', id };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await this.records.findOneBy({
      accountId: scope.accountId,
      caller: scope.caller,
      idempotencyKey: key,
    });
    if (!existing) return this.claim(scope, key, requestHash);
    if (existing.expiresAt.getTime() <= Date.now()) {
      await this.records.delete({ id: existing.id, expiresAt: LessThan(new Date()) });
      return this.claim(scope, key, requestHash);
    }
    if (existing.requestHash !== requestHash) return { outcome: 'mismatch' };
    if (existing.status === null) return { outcome: 'running' };
    return {
      outcome: 'replay',
      status: existing.status,
      body: existing.responseBody === null ? undefined : this.open(existing.responseBody),
    };
  }

  async complete(id: string, status: number, body: unknown): Promise<void> {
    await this.records.update(
      { id },
      { status, responseBody: body === undefined ? null : this.seal(body) },
    );
  }

  private seal(body: unknown): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const sealed = Buffer.concat([cipher.update(JSON.stringify(body), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  private open(stored: string): unknown {
    const raw = Buffer.from(stored, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
    return JSON.parse(text.toString('utf8'));
  }

  /** A failed first request leaves nothing behind: the client may retry with the same key. */
  async release(id: string): Promise<void> {
    await this.records.delete({ id });
  }
}
