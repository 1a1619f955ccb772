import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ComplianceModule } from '../compliance/compliance.module';
import { TradeLedgerService } from './ledger/trade-ledger.service';
import { TradeReservation } from './ledger/trade-reservation.entity';
import { TradeReservationSweep } from './ledger/trade-reservation.sweep';
import { TradingOnchainModule } from './onchain/trading-onchain.module';
import { TradeRulesService } from './trade-rules.service';
import { TradeEnforcementSync } from './trade-enforcement-sync';
import { WalletsModule } from '../compliance/wallets/wallets.module';
import { TradePolicyController } from './trade-policy.controller';
import { TradePolicyService } from './trade-policy.service';

/** Trade rules (issue 54): the rules phase, the daily-limit ledger, hook v3's authorizations. */
@Module({
  imports: [
    ComplianceModule,
    WalletsModule,
    TradingOnchainModule,
    TypeOrmModule.forFeature([TradeReservation]),
  ],
  controllers: [TradePolicyController],
  providers: [
    TradeLedgerService,
    TradeRulesService,
    TradePolicyService,
    TradeReservationSweep,
    TradeEnforcementSync,
  ],
  exports: [TradeRulesService, TradeLedgerService, TradeEnforcementSync, TradingOnchainModule],
})
export class TradingModule {}
