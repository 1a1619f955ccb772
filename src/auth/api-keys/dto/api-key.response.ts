import { ApiProperty } from '@nestjs/swagger';
import { SCOPES } from '../../scopes';

export class ApiKeyResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'CI pipeline' }) name: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The dashboard user who created the key (null: created otherwise, e.g. the CLI)',
  })
  createdByUserId: string | null;
  @ApiProperty({
    description: 'The clear part of the key, to recognise it',
    example: 'cgk_test_3f9a0c51d2e4',
  })
  prefix: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes: string[];
  @ApiProperty() active: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastUsedAt: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) revokedAt: string | null;
}

export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({
    description: 'The full key. Shown in this response only: store it now.',
    example: 'cgk_test_3f9a0c51d2e4b7a1c0ffee0123456789abcdef0123456789',
  })
  key: string;
}

export class ApiKeyListResponse {
  @ApiProperty({ enum: ['jwt'] }) authMethod: string;
  @ApiProperty({
    type: [ApiKeyResponse],
    description: 'One page of your keys, newest first; secrets are never listed',
  })
  items: ApiKeyResponse[];
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Pass as cursor to get the next page; null on the last page.',
  })
  nextCursor: string | null;
}
