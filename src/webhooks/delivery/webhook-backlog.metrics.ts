import { Injectable } from '@nestjs/common';
import { Metrics } from '../../metrics/metrics.service';
import { DeliveryStore } from './delivery-store';

/**
 * The webhook backlog at each scrape: pending deliveries (every instance's: one table), and how
 * long the oldest has waited since it was first due (its creation; retries of a failing receiver
 * keep it pending and ageing). One indexed count per scrape.
 */
@Injectable()
export class WebhookBacklogMetrics {
  constructor(metrics: Metrics, store: DeliveryStore) {
    metrics.onScrape('webhook-backlog', async () => {
      const { depth, oldestCreatedMs } = await store.backlog();
      metrics.webhookQueueDepth.set(depth);
      metrics.webhookOldestDueAge.set(
        oldestCreatedMs === null ? 0 : Math.max(0, (Date.now() - oldestCreatedMs) / 1000),
      );
    });
  }
}
