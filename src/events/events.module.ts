import { Global, Module } from '@nestjs/common';
import { ActivityLog } from './activity-log';

/**
 * The activity log every feature module records into (auth, accounts, compliance, usage,
 * defi-builder). Global and below them all: it imports nothing of theirs; the audit trail and
 * the webhook outbox register as its sinks.
 */
@Global()
@Module({ providers: [ActivityLog], exports: [ActivityLog] })
export class EventsModule {}
