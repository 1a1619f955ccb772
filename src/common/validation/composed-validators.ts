import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsPrintableName } from './is-printable-name';

/**
 * The decorators as if written one above the other on the property: TypeScript applies those
 * bottom-up, and validation reports constraints in that order, so the composed ones keep it.
 */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}

/** A non-empty set of the given values: an array, each value once, each one of them. */
export function IsSetOf(values: readonly string[]): PropertyDecorator {
  return stacked(
    IsArray(),
    ArrayNotEmpty(),
    ArrayUnique(),
    ArrayMaxSize(values.length),
    IsIn(values as string[], { each: true }),
  );
}

/** A label people read: a string of 1 to `max` characters with nothing invisible in it. */
export function IsLabel(max: number): PropertyDecorator {
  return stacked(IsString(), Length(1, max), IsPrintableName());
}

/** The optional `limit` of a paged list: a whole number from 1 to `max` (query text converted). */
export function PageLimit(things: string, defaultSize: number, max: number): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({
      description: `${things} per page, newest first (default ${defaultSize}).`,
      minimum: 1,
      maximum: max,
    }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(max),
  );
}

/** The optional `cursor` of a paged list: the previous page's opaque nextCursor. */
export function PageCursor(): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({
      description: 'The nextCursor of the previous page; omit for the first page.',
    }),
    IsOptional(),
    Matches(/^[A-Za-z0-9_-]{1,128}$/, {
      message: 'cursor must be a nextCursor from a previous page',
    }),
  );
}

/**
 * An optional member that may be left out but not sent as null: validated whenever present
 * (class-validator's IsOptional would let null through to the service).
 */
export function UnlessAbsent(): PropertyDecorator {
  return ValidateIf((_body: object, value: unknown) => value !== undefined);
}

/**
 * A member that is an object of `type`, validated member by member (an array, a string or null
 * is refused naming the member); required unless `optional`, and then still never null.
 */
export function NestedObject(
  type: () => new () => object,
  options: { optional?: boolean } = {},
): PropertyDecorator {
  return stacked(
    options.optional ? UnlessAbsent() : IsDefined(),
    IsObject(),
    ValidateNested(),
    Type(type),
  );
}
