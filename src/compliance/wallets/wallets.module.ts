import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Wallet } from './wallet.entity';
import { WalletsController } from './wallets.controller';
import { WalletOwnerCache } from './wallet-owner-cache';
import { WalletsService } from './wallets.service';

@Module({
  imports: [TypeOrmModule.forFeature([Wallet])],
  controllers: [WalletsController],
  providers: [WalletsService, WalletOwnerCache],
  exports: [WalletsService],
})
export class WalletsModule {}
