import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { getAddress } from 'ethers';
import { Repository } from 'typeorm';
import { Wallet } from './wallet.entity';

/** Wallet binding: which account a wallet belongs to (at most one). */
@Injectable()
export class WalletsService {
  constructor(@InjectRepository(Wallet) private readonly wallets: Repository<Wallet>) {}

  findByAddress(address: string): Promise<Wallet | null> {
    return this.wallets.findOneBy({ address: getAddress(address) });
  }
}
