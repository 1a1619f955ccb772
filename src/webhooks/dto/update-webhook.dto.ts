import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { ApiRequestExample } from '../../common/openapi/api-request-example.decorator';

import { SUBSCRIBABLE_EVENT_TYPES, type SubscribableEventType } from '../webhook-event-types';
import { EVENTS_DESCRIPTION, URL_DESCRIPTION } from './create-webhook.dto';
import { IsLabel, IsSetOf } from '../../common/validation/composed-validators';

/**
 * Absent = unchanged; null is refused (not "unchanged", and not a value these columns can hold):
 * @IsOptional would let null through to the database.
 */
const UnlessAbsent = () => ValidateIf((_body: object, value: unknown) => value !== undefined);

@ApiRequestExample({ events: ['session.activated', 'session.revoked'], active: true })
export class UpdateWebhookDto {
  @ApiPropertyOptional({ description: URL_DESCRIPTION, maxLength: 2048 })
  @UnlessAbsent()
  @IsString()
  @Length(8, 2048)
  url?: string;

  @ApiPropertyOptional({
    description: EVENTS_DESCRIPTION,
    enum: SUBSCRIBABLE_EVENT_TYPES,
    isArray: true,
  })
  @UnlessAbsent()
  @IsSetOf(SUBSCRIBABLE_EVENT_TYPES)
  events?: SubscribableEventType[];

  @ApiPropertyOptional({
    description:
      'false stops deliveries (pending ones are not sent); true resumes and clears a disablement by the service.',
  })
  @UnlessAbsent()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({
    description: 'A label for the dashboard; null removes it',
    maxLength: 200,
    nullable: true,
  })
  @IsOptional()
  @IsLabel(200)
  description?: string | null;
}
