import { Module, OnModuleInit } from '@nestjs/common';
import { ActivityLog } from '../../events/activity-log';
import { SessionWatchSink } from '../scanners/session-watch.sink';
import { WebhookOutbox } from './webhook-outbox';

/**
 * The webhook sinks alone (outbox + watched sessions), registered on the ActivityLog: what a
 * process needs to queue webhook events without sending them, e.g. the operator CLI (its
 * session and credential revocations), while the server's dispatcher delivers them.
 */
@Module({
  providers: [WebhookOutbox, SessionWatchSink],
  exports: [WebhookOutbox],
})
export class WebhookOutboxModule implements OnModuleInit {
  constructor(
    private readonly activity: ActivityLog,
    private readonly outbox: WebhookOutbox,
    private readonly sessionWatch: SessionWatchSink,
  ) {}

  onModuleInit(): void {
    this.activity.addSink(this.sessionWatch);
    this.activity.addSink(this.outbox);
  }
}
