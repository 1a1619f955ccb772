import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ComplianceModule } from '../compliance/compliance.module';
import { ActivityLog } from '../events/activity-log';
import { ReceiptExecutionsService } from './execution/receipt-executions.service';
import { ReceiptChainWatch } from './execution/receipt-chain-watch';
import { SessionOpening } from './openings/session-opening.entity';
import { SessionOpeningsService, SessionOpeningsSink } from './openings/session-openings';
import { ComplianceReceipt } from './receipt.entity';
import { ReceiptsController } from './receipts.controller';
import { ReceiptsService } from './receipts.service';
import { ReceiptInserts } from './receipt-inserts';
import { JwksController } from './signing/jwks.controller';
import { ReceiptSigner } from './signing/receipt-signer';
import { ReceiptSigningKey } from './signing/receipt-signing-key.entity';

/**
 * Compliance receipts (issue 56): signed evidence per build (ReceiptsService.issue, called by the
 * DeFi pipeline), the execution once mined (ReceiptExecutionsService, called by the relay's
 * watcher and the chain watch), the account's reads and export, and the JWKS. The session
 * openings sink keeps what each wallet's session stood on, from the activity log.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ComplianceReceipt, ReceiptSigningKey, SessionOpening]),
    ComplianceModule,
  ],
  controllers: [ReceiptsController, JwksController],
  providers: [
    ReceiptSigner,
    ReceiptInserts,
    ReceiptsService,
    ReceiptExecutionsService,
    ReceiptChainWatch,
    SessionOpeningsService,
    SessionOpeningsSink,
  ],
  exports: [ReceiptsService, ReceiptExecutionsService],
})
export class ReceiptsModule implements OnModuleInit {
  constructor(
    private readonly activityLog: ActivityLog,
    private readonly openings: SessionOpeningsSink,
  ) {}

  onModuleInit(): void {
    this.activityLog.addSink(this.openings);
  }
}
