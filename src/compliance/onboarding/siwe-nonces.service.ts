import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { LessThan, Repository } from 'typeorm';
import { deleteInBatches } from '../../common/database/delete-in-batches';
import { ComplianceConfig } from '../../config/compliance.config';
import { newSiweNonce } from '../siwe';
import { SiweNonce } from './siwe-nonce.entity';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Server-issued ERC-4361 nonces: account-bound, single use, expiring. */
@Injectable()
export class SiweNoncesService {
  constructor(
    @InjectRepository(SiweNonce) private readonly nonces: Repository<SiweNonce>,
    private readonly config: ComplianceConfig,
  ) {}

  async issue(accountId: string, now = Date.now()): Promise<{ nonce: string; expiresAt: Date }> {
    // Housekeeping on the write path keeps the table at "nonces of the last 10 minutes".
    await this.nonces.delete({ expiresAt: LessThan(now) });
    const nonce = newSiweNonce();
    const expiresAt = now + this.config.siweNonceTtlSeconds * 1000;
    await this.nonces.insert({ nonceHash: sha256(nonce), accountId, expiresAt });
    return { nonce, expiresAt: new Date(expiresAt) };
  }

  /**
   * Consumes a nonce in ONE conditional DELETE: true only for the single request that removes an
   * unexpired nonce issued to this account. A replay, another account's nonce or an expired one
   * deletes nothing.
   */
  async consume(accountId: string, nonce: string, now = Date.now()): Promise<boolean> {
    const result = await this.nonces
      .createQueryBuilder()
      .delete()
      .from(SiweNonce)
      .where('nonce_hash = :hash AND account_id = :accountId AND expires_at > :now', {
        hash: sha256(nonce),
        accountId,
        now,
      })
      .execute();
    return result.affected === 1;
  }

  /** Retention sweep (issue 15): expired nonces, in bounded batches. */
  async pruneExpired(now: number, batchSize: number): Promise<Record<string, number>> {
    return {
      siweNonces: await deleteInBatches(this.nonces, 't.expiresAt < :now', { now }, batchSize),
    };
  }
}
