import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ComplianceModule } from '../compliance/compliance.module';
import { DeliveryStore } from './delivery/delivery-store';
import { WebhookBacklogMetrics } from './delivery/webhook-backlog.metrics';
import { WebhookDispatcher } from './delivery/webhook-dispatcher';
import { WebhookOutboxModule } from './outbox/webhook-outbox.module';
import { SessionExpiryScanner } from './scanners/session-expiry.scanner';
import { WebhookSecrets } from './webhook-secrets';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * Signed webhooks (issue 32): endpoint management, the outbox (ActivityLog sinks writing in the
 * caller's transaction, WebhookOutboxModule), the dispatcher (claims, signs, sends, retries) and
 * the session.expiring scanner. transaction.* are recorded by the relay's watcher (defi-builder),
 * quota.threshold by the quota guard (usage), api_key.* by the key service (auth): all through
 * the ActivityLog.
 */
@Module({
  imports: [AuthModule, ComplianceModule, WebhookOutboxModule],
  controllers: [WebhooksController],
  providers: [
    WebhookSecrets,
    DeliveryStore,
    WebhookDispatcher,
    WebhooksService,
    SessionExpiryScanner,
    WebhookBacklogMetrics,
  ],
  exports: [WebhookDispatcher, SessionExpiryScanner],
})
export class WebhooksModule {}
