import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Length,
} from 'class-validator';
import { ApiRequestExample } from '../../common/openapi/api-request-example.decorator';
import { IsPrintableName } from '../../common/validation/is-printable-name';
import { SUBSCRIBABLE_EVENT_TYPES, type SubscribableEventType } from '../webhook-event-types';

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
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @ArrayMaxSize(SUBSCRIBABLE_EVENT_TYPES.length)
  @IsIn(SUBSCRIBABLE_EVENT_TYPES, { each: true })
  events: SubscribableEventType[];

  @ApiPropertyOptional({
    description: 'A label for the dashboard',
    maxLength: 200,
    example: 'Risk desk',
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @IsPrintableName()
  description?: string;
}
