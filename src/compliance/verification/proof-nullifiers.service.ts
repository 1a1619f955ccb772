import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isUniqueViolation } from '../wallets/unique-violation';
import { ProofNullifier } from './proof-nullifier.entity';

/** Spent proof nullifiers: the primary key makes "first one wins" atomic on both engines. */
@Injectable()
export class ProofNullifiersService {
  constructor(
    @InjectRepository(ProofNullifier) private readonly nullifiers: Repository<ProofNullifier>,
  ) {}

  /** True if this call spent the nullifier; false if it was already spent (a replay). */
  async claim(nullifier: string, walletAddress: string, accountId: string): Promise<boolean> {
    try {
      await this.nullifiers.insert({ nullifier, walletAddress, accountId });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Gives a nullifier back when its session could not be activated, so the user can retry. */
  async release(nullifier: string): Promise<void> {
    await this.nullifiers.delete({ nullifier });
  }
}
