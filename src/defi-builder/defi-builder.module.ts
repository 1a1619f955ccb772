import { ComplianceModule } from '../compliance/compliance.module';
import { Module } from '@nestjs/common';
import { RelayService } from './broadcast/relay.service';
import { SafeExecChecks } from './broadcast/safe-exec.service';
import { RelayedTransactionWatcher } from './broadcast/relayed-transaction.watcher';
import { RelayedTransactionsService } from './broadcast/relayed-transactions.service';
import { TransactionStatusService } from './broadcast/transaction-status.service';
import { TransactionsController } from './broadcast/transactions.controller';
import { WalletsModule } from '../compliance/wallets/wallets.module';
import { ChainLayerDefiChain } from './chain/defi-chain.adapter';
import { DEFI_CHAIN } from './chain/defi-chain.port';
import { DefiPipelineService } from './pipeline/defi-pipeline.service';
import { GasEstimatorService } from './pipeline/gas-estimator.service';
import { DefiConfigService } from './defi-config.service';
import { DefiController } from './defi.controller';
import { PositionsController } from './positions/positions.controller';
import { PositionsService } from './positions/positions.service';
import { PreflightController } from './preflight/preflight.controller';
import { PreflightService } from './preflight/preflight.service';
import { WalletStatusService } from './preflight/wallet-status.service';
import { QuoteService } from './quote/quote.service';
import { ReceiptsModule } from '../receipts/receipts.module';
import { TradingModule } from '../trading/trading.module';
import { ApprovalsModule } from '../approvals/approvals.module';

@Module({
  imports: [WalletsModule, ComplianceModule, ReceiptsModule, TradingModule, ApprovalsModule],
  controllers: [DefiController, PreflightController, PositionsController, TransactionsController],
  providers: [
    { provide: DEFI_CHAIN, useClass: ChainLayerDefiChain },
    PreflightService,
    WalletStatusService,
    GasEstimatorService,
    DefiPipelineService,
    DefiConfigService,
    QuoteService,
    PositionsService,
    RelayService,
    SafeExecChecks,
    TransactionStatusService,
    RelayedTransactionsService,
    RelayedTransactionWatcher,
  ],
})
export class DefiBuilderModule {}
