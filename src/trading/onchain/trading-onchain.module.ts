import { Module } from '@nestjs/common';
import { ComplianceModule } from '../../compliance/compliance.module';
import { TradeAuthorizer } from './trade-authorizer.service';
import { TradeEnforcement } from './trade-enforcement.service';

/** Hook v3's per-trade authorizations and per-wallet enforcement flag (issue 54). */
@Module({
  imports: [ComplianceModule],
  providers: [TradeAuthorizer, TradeEnforcement],
  exports: [TradeAuthorizer, TradeEnforcement],
})
export class TradingOnchainModule {}
