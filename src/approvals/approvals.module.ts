import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { ComplianceModule } from '../compliance/compliance.module';
import { TradingModule } from '../trading/trading.module';
import { ApprovalExpirySweep } from './approval-expiry.sweep';
import { ApprovalGate } from './approval-gate.service';
import { ApprovalRequest } from './approval-request.entity';
import { ApprovalVote } from './approval-vote.entity';
import { ApprovalsController } from './approvals.controller';
import { ApprovalsService } from './approvals.service';

/**
 * Four eyes (issue 55): approval requests and votes, their API, the gate the DeFi pipeline calls
 * (ApprovalGate) and the expiry sweep. Sits beside trading, below the DeFi builder.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ApprovalRequest, ApprovalVote]),
    AuthModule,
    ComplianceModule,
    TradingModule,
  ],
  controllers: [ApprovalsController],
  providers: [ApprovalsService, ApprovalGate, ApprovalExpirySweep],
  exports: [ApprovalGate],
})
export class ApprovalsModule {}
