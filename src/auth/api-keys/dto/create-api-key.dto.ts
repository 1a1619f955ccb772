import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsDate,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MinDate,
} from 'class-validator';
import { Scope, SCOPES } from '../../scopes';

export class CreateApiKeyDto {
  @ApiProperty({
    description: 'A label to recognise the key by',
    example: 'CI pipeline',
    minLength: 1,
    maxLength: 100,
  })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({
    description: 'Permissions of the key',
    enum: SCOPES,
    isArray: true,
    example: ['defi:swap', 'usage:read'],
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true })
  scopes: Scope[];

  @ApiPropertyOptional({
    description: 'Expiry (ISO 8601, in the future); omitted: the key never expires',
    example: '2027-01-01T00:00:00Z',
  })
  @IsOptional()
  @Type(() => Date)
  @IsDate({ message: 'expiresAt must be an ISO 8601 date-time' })
  @MinDate(() => new Date(), { message: 'expiresAt must be in the future' })
  expiresAt?: Date;
}
