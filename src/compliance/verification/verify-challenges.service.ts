import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { In, IsNull, LessThan, MoreThan, Repository } from 'typeorm';
import { ComplianceConfig } from '../../config/compliance.config';
import { VerifyChallenge } from './verify-challenge.entity';

const nowSeconds = () => Math.floor(Date.now() / 1000);

export type ChallengeLookup = 'usable' | 'used' | 'unknown';

/** Single-use, account- and wallet-bound challenges for POST /verify, and the sessions they opened. */
@Injectable()
export class VerifyChallengesService {
  constructor(
    @InjectRepository(VerifyChallenge) private readonly challenges: Repository<VerifyChallenge>,
    private readonly config: ComplianceConfig,
  ) {}

  async issue(accountId: string, walletAddress: string): Promise<VerifyChallenge> {
    const now = nowSeconds();
    // Housekeeping on the write path: unused challenges past their life go.
    await this.challenges.delete({ usedAt: IsNull(), expiresAt: LessThan(now) });
    const row = this.challenges.create({
      // 248 random bits: below the BN254 scalar field, as the circuit's public input must be.
      challenge: BigInt('0x' + randomBytes(31).toString('hex')).toString(),
      accountId,
      walletAddress,
      expiresAt: now + this.config.verifyChallengeTtlSeconds,
      usedAt: null,
      nullifier: null,
      issuerName: null,
      sessionUntil: null,
    });
    await this.challenges.insert(row);
    return row;
  }

  /** Unknown covers expired and foreign (another account or wallet): the same answer for each. */
  async lookup(
    challenge: string,
    accountId: string,
    walletAddress: string,
  ): Promise<ChallengeLookup> {
    const row = await this.challenges.findOneBy({ challenge });
    if (!row || row.accountId !== accountId || row.walletAddress !== walletAddress)
      return 'unknown';
    if (row.usedAt !== null) return 'used';
    return row.expiresAt > nowSeconds() ? 'usable' : 'unknown';
  }

  /** ONE conditional UPDATE: true only for the single request that spends a usable challenge. */
  async consume(challenge: string, accountId: string, nullifier: string): Promise<boolean> {
    const now = nowSeconds();
    const result = await this.challenges.update(
      { challenge, accountId, usedAt: IsNull(), expiresAt: MoreThan(now) },
      { usedAt: now, nullifier },
    );
    return result.affected === 1;
  }

  /** Gives a challenge back when its session could not be opened, so the proof can be retried. */
  async release(challenge: string): Promise<void> {
    await this.challenges.update({ challenge }, { usedAt: null, nullifier: null });
  }

  async recordSession(challenge: string, sessionUntil: number, issuerName: string): Promise<void> {
    await this.challenges.update({ challenge }, { sessionUntil, issuerName });
  }

  /** Wallets whose session, opened by one of these credentials (nullifiers), may still run. */
  async walletsWithOpenSessions(nullifiers: string[]): Promise<string[]> {
    if (nullifiers.length === 0) return [];
    const rows = await this.challenges.findBy({
      nullifier: In(nullifiers),
      sessionUntil: MoreThan(nowSeconds()),
    });
    return [...new Set(rows.map((r) => r.walletAddress))];
  }

  /** Wallets whose session, opened by a credential of this issuer, may still run. */
  async walletsWithOpenSessionsOfIssuer(issuerName: string): Promise<string[]> {
    const rows = await this.challenges.findBy({
      issuerName,
      sessionUntil: MoreThan(nowSeconds()),
    });
    return [...new Set(rows.map((r) => r.walletAddress))];
  }

  /** True when the session ending at `activeUntil` was opened by a verified credential. */
  async openedByCredential(walletAddress: string, activeUntil: number): Promise<boolean> {
    return this.challenges.existsBy({ walletAddress, sessionUntil: activeUntil });
  }
}
