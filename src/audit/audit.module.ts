import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivityLog } from '../events/activity-log';
import { AuditEvent } from './audit-event.entity';
import { AuditEventsController } from './audit-events.controller';
import { AuditEventsService } from './audit-events.service';
import { AuditTrailSink } from './audit-trail.sink';
import { SecretRotationRecorder } from './secret-rotation.recorder';

/**
 * The audit trail: a sink on the activity log (every audited event, in the transaction of its
 * change), the account's read endpoint, and its retention (run by the retention sweep).
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent])],
  controllers: [AuditEventsController],
  providers: [AuditEventsService, SecretRotationRecorder],
  exports: [AuditEventsService],
})
export class AuditModule implements OnModuleInit {
  constructor(private readonly activityLog: ActivityLog) {}

  onModuleInit(): void {
    this.activityLog.addSink(new AuditTrailSink());
  }
}
