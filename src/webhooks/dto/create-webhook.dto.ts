import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { ApiRequestExample } from '../../common/openapi/api-request-example.decorator';

import { SUBSCRIBABLE_EVENT_TYPES, type SubscribableEventType } from '../webhook-event-types';
import { IsLabel, IsSetOf } from '../../common/validation/composed-validators';

export const URL_DESCRIPTION =
  'Where events are POSTed. Production mode: https only, and the name must resolve to public addresses only (not loopback, private, CGNAT, link-local or metadata), checked now and before every delivery; WEBHOOK_ALLOWED_HOSTS names exceptions. Demo mode also accepts http and loopback (127.0.0.0/8, [::1], localhost), and refuses the other non-public addresses as production does.';

export const EVENTS_DESCRIPTION =
  'Event types to receive (at least one). Only events of your own account are sent.';

@ApiRequestExample({
  url: 'https://hooks.example.com/compliance-defi',
  events: ['session.activated', 'session.expiring', 'transaction.confirmed'],
  description: 'Risk desk',
})
export class CreateWebhookDto {
  @ApiProperty({
    description: URL_DESCRIPTION,
    example: 'https://hooks.example.com/compliance-defi',
    maxLength: 2048,
  })
  @IsString()
  @Length(8, 2048)
  url: string;

  @ApiProperty({
    description: EVENTS_DESCRIPTION,
    enum: SUBSCRIBABLE_EVENT_TYPES,
    isArray: true,
    example: ['session.activated', 'transaction.confirmed'],
  })
  @IsSetOf(SUBSCRIBABLE_EVENT_TYPES)
  events: SubscribableEventType[];

  @ApiPropertyOptional({
    description: 'A label for the dashboard',
    maxLength: 200,
    example: 'Risk desk',
  })
  @IsOptional()
  @IsLabel(200)
  description?: string;
}
