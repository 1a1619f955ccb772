import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { placeholders } from '../../common/database/placeholders';
import { isUniqueViolation } from '../../common/database/unique-violation';
import { Wallet } from './wallet.entity';
import { checksumAddress } from '../../common/address/checksum-address';
import { WalletOwnerCache } from './wallet-owner-cache';

/** What binding did: the wallet is now the caller's; `reboundFrom` names the account it left. */
export interface BindResult {
  walletAddress: string;
  accountId: string;
  /** False when the wallet was already bound to this account (idempotent). */
  changed: boolean;
  reboundFrom: string | null;
}

/** `rebind`: demo mode takes a wallet over from another account; `keep`: never (production). */
export type BindPolicy = 'rebind' | 'keep';

/** Lost races (another request bound or rebound the same wallet in between) are retried this often. */
const MAX_BIND_ATTEMPTS = 4;

/** Wallet binding: which account a wallet belongs to (at most one). */
@Injectable()
export class WalletsService {
  constructor(
    @InjectRepository(Wallet) private readonly wallets: Repository<Wallet>,
    private readonly owners: WalletOwnerCache,
  ) {}

  /** The binding of a wallet, or null when unbound. */
  findByAddress(address: string): Promise<Wallet | null> {
    return this.wallets.findOneBy({ address: checksumAddress(address) });
  }

  /** The wallets bound to `accountId`, most recently bound first. */
  listForAccount(accountId: string): Promise<Wallet[]> {
    return this.wallets.find({ where: { accountId }, order: { boundAt: 'DESC', address: 'ASC' } });
  }

  /**
   * Spec §4 rule 5, the one ownership rule of every operation on a wallet (swap, liquidity,
   * preflight): 403 INSTITUTION_OWNERSHIP_MISMATCH when the wallet is bound to another account;
   * an unbound wallet is served and stays unbound. Returns whether it is bound to `accountId`.
   */
  async assertNotBoundElsewhere(address: string, accountId: string | undefined): Promise<boolean> {
    const checksummed = checksumAddress(address);
    const owner = await this.ownerOf(checksummed);
    if (owner === null) return false;
    if (owner !== accountId) throw ownershipMismatch(checksummed);
    return true;
  }

  /**
   * The account a (checksummed) wallet is bound to, or null. Every build asks: with Redis from
   * WalletOwnerCache (changes reach every instance at once), else one prepared SELECT of one
   * column (6 us on SQLite) rather than findOneBy's query builder (94 us; docs/architecture.md,
   * "Why hand-written"). wallets.e2e-spec pins it to findByAddress.
   */
  ownerOf(checksummedAddress: string): Promise<string | null> {
    return this.owners.ownerOf(checksummedAddress, () => this.readOwner(checksummedAddress));
  }

  private async readOwner(checksummedAddress: string): Promise<string | null> {
    const manager = this.wallets.manager;
    const mark = placeholders(manager);
    const params: unknown[] = [];
    const rows = (await manager.query(
      `SELECT account_id FROM wallets WHERE address = ${mark(params, checksummedAddress)}`,
      params,
    )) as Array<{ account_id: string }>;
    return rows.length > 0 ? String(rows[0].account_id) : null;
  }

  /**
   * Binds `address` to `accountId`. Every write is conditional (insert on the primary key, or
   * update WHERE account_id = the owner we read), so concurrent binds cannot both claim a wallet
   * and `reboundFrom` is always the account the wallet really left.
   */
  async bind(address: string, accountId: string, policy: BindPolicy): Promise<BindResult> {
    const walletAddress = checksumAddress(address);
    for (let attempt = 0; attempt < MAX_BIND_ATTEMPTS; attempt++) {
      const current = await this.wallets.findOneBy({ address: walletAddress });
      if (!current) {
        if (await this.tryInsert(walletAddress, accountId)) {
          await this.owners.changed(walletAddress);
          return { walletAddress, accountId, changed: true, reboundFrom: null };
        }
        continue;
      }
      if (current.accountId === accountId)
        return { walletAddress, accountId, changed: false, reboundFrom: null };
      if (policy === 'keep') throw ownershipMismatch(walletAddress);
      const result = await this.wallets
        .createQueryBuilder()
        .update(Wallet)
        .set({ accountId, boundAt: () => 'CURRENT_TIMESTAMP' })
        .where('address = :address AND account_id = :previous', {
          address: walletAddress,
          previous: current.accountId,
        })
        .execute();
      if (result.affected === 1) {
        await this.owners.changed(walletAddress);
        return { walletAddress, accountId, changed: true, reboundFrom: current.accountId };
      }
    }
    throw new Error(`wallet ${walletAddress} kept changing owner while binding`);
  }

  /** The wallet must be bound to `accountId` (production: binding needs a SIWE proof of control). */
  async assertBoundTo(address: string, accountId: string): Promise<void> {
    const current = await this.findByAddress(address);
    if (current?.accountId === accountId) return;
    if (current) throw ownershipMismatch(current.address);
    throw new ApiError(
      'INSTITUTION_OWNERSHIP_MISMATCH',
      `Wallet ${checksumAddress(address)} is not bound to your account`,
      {
        hint: 'Bind the wallet first: GET /onboarding/nonce, sign the Sign-In-with-Ethereum message with the wallet, then POST /onboarding/register with message and signature.',
      },
    );
  }

  private async tryInsert(address: string, accountId: string): Promise<boolean> {
    try {
      await this.wallets.insert({ address, accountId });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}

export function ownershipMismatch(address: string): ApiError {
  return new ApiError(
    'INSTITUTION_OWNERSHIP_MISMATCH',
    `Wallet ${address} is bound to another account`,
  );
}
