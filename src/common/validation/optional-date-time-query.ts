import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsOptional } from 'class-validator';

/**
 * An optional ISO 8601 instant in a query string (`?from=`, `?to=`), parsed to a Date and
 * refused as a field error naming `field` when it is not one.
 */
export function OptionalDateTimeQuery(
  field: string,
  doc: { description: string; example: string },
): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(doc),
    IsOptional(),
    Type(() => Date),
    IsDate({ message: `${field} must be an ISO 8601 date-time` }),
  );
}
