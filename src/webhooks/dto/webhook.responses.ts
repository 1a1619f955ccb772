import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SUBSCRIBABLE_EVENT_TYPES } from '../webhook-event-types';

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'https://hooks.example.com/compliance-defi' })
  url: string;

  @ApiProperty({ enum: SUBSCRIBABLE_EVENT_TYPES, isArray: true })
  events: string[];

  @ApiProperty({ description: 'false: no deliveries (turned off, or disabled after failing)' })
  active: boolean;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the service disabled it (every delivery failing for WEBHOOK_DISABLE_AFTER_SECONDS)',
  })
  disabledReason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'ISO 8601: failing without a success since then; null while healthy',
  })
  failingSince: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'ISO 8601: after a rotation, the previous secret also signs until then',
  })
  previousSecretExpiresAt: string | null;

  @ApiProperty()
  createdAt: string;
}

export class CreatedWebhookResponse extends WebhookResponse {
  @ApiProperty({
    description:
      'The signing secret, shown in this response only: verify each delivery with it (Standard Webhooks, e.g. `new Webhook(secret).verify(body, headers)`).',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookResponse] })
  webhooks: WebhookResponse[];
}

export class WebhookTestResponse {
  @ApiProperty({ description: 'The webhook-id of the test event', example: 'msg_2f1c...' })
  eventId: string;

  @ApiProperty({ format: 'uuid', description: 'Follow it in GET /api/v1/webhooks/{id}/deliveries' })
  deliveryId: string;
}

export class WebhookAttemptResponse {
  @ApiProperty({ example: 1 })
  attempt: number;

  @ApiProperty({ type: Number, nullable: true, description: 'null: no HTTP response' })
  statusCode: number | null;

  @ApiProperty({ example: 42 })
  durationMs: number;

  @ApiProperty({ type: String, nullable: true, example: 'HTTP 500' })
  error: string | null;

  @ApiProperty()
  attemptedAt: string;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'The webhook-id header: the same on every attempt' })
  eventId: string;

  @ApiProperty({ example: 'session.activated' })
  eventType: string;

  @ApiProperty({
    enum: ['pending', 'delivered', 'failed', 'notice'],
    description:
      'pending: retries scheduled; delivered: a 2xx; failed: every attempt failed (or the endpoint was turned off); notice: listed, never sent (webhook.disabled)',
  })
  status: string;

  @ApiProperty()
  attemptCount: number;

  @ApiProperty({ type: String, nullable: true, description: 'ISO 8601 of the next attempt' })
  nextRetryAt: string | null;

  @ApiProperty({ type: Number, nullable: true })
  lastStatusCode: number | null;

  @ApiProperty({ type: String, nullable: true })
  lastError: string | null;

  @ApiPropertyOptional({ type: Object, description: 'The event body (type, id, createdAt, data)' })
  payload: Record<string, unknown>;

  @ApiProperty()
  createdAt: string;

  @ApiProperty({ type: String, nullable: true })
  deliveredAt: string | null;

  @ApiProperty({ type: [WebhookAttemptResponse], description: 'Oldest first' })
  attempts: WebhookAttemptResponse[];
}

export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryResponse] })
  deliveries: WebhookDeliveryResponse[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page' })
  nextCursor: string | null;
}
