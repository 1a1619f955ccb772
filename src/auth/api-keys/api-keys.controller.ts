import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiTags } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error';
import { JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { Operation } from '../../common/openapi/operation.decorator';
import { CurrentMember, MemberActor } from '../member-actor';
import { CurrentPrincipal, Principal } from '../principal';
import { RequireDashboardLogin } from '../require-scope.decorator';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyListResponse, ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.response';
import { CreateApiKeyDto } from './dto/create-api-key.dto';
import { ListApiKeysQueryDto } from './dto/list-api-keys-query.dto';
import { UpdateApiKeyDto } from './dto/update-api-key.dto';

const KEY_ID_PARAM = {
  name: 'id',
  format: 'uuid',
  description: 'The key id (GET /api/v1/api-keys lists them).',
  example: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
} as const;

/** Dashboard key management: JWT only, always scoped to the caller's account. */
@ApiTags('api-keys')
@RequireDashboardLogin()
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Idempotent()
  @Post()
  @Operation({
    id: 'createApiKey',
    summary: 'Create an API key; the full key appears in this response only',
    description:
      'At most 10 active keys on the free plan, 100 on pro, 1,000 on enterprise (revoked keys do not count): API_KEY_LIMIT_REACHED (409) beyond. ' +
      'Roles: owner and admin may give every scope, a developer every scope but `audit:read`, a viewer creates no keys (ROLE_FORBIDDEN).',
    created: CreatedApiKeyResponse,
    errors: [...JSON_BODY_ERRORS, 'ROLE_FORBIDDEN', 'API_KEY_LIMIT_REACHED', 'SERVICE_UNAVAILABLE'],
  })
  create(@CurrentMember() member: MemberActor, @Body() body: CreateApiKeyDto) {
    return this.apiKeys.create(member, {
      name: body.name,
      scopes: body.scopes,
      expiresAt: body.expiresAt,
    });
  }

  @Get()
  @Operation({
    id: 'listApiKeys',
    summary: "List your account's API keys (never their secrets), newest first, one page at a time",
    description:
      'Pass limit (1-100, default 50); when nextCursor is not null, pass it as cursor for the next page.',
    ok: ApiKeyListResponse,
    errors: ['INVALID_PARAMS', 'SERVICE_UNAVAILABLE'],
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListApiKeysQueryDto) {
    return this.apiKeys.listForAccount(principal.accountId, query);
  }

  @Patch(':id')
  @Operation({
    id: 'updateApiKey',
    summary: "Edit a key's name, scopes or expiry; the secret stays the same",
    description:
      'Send only the fields to change; scopes replace the old set, expiresAt null removes the expiry. Requests with the key see the change at once on this instance (within API_KEY_CACHE_MS on others). ' +
      'A developer edits only keys whose scopes, before and after, a developer may give (not `audit:read`); a viewer edits none (ROLE_FORBIDDEN). NOT_FOUND when no key with this id belongs to your account.',
    params: [KEY_ID_PARAM],
    ok: ApiKeyResponse,
    errors: [...JSON_BODY_ERRORS, 'ROLE_FORBIDDEN', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  })
  update(
    @CurrentMember() member: MemberActor,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: notFound })) id: string,
    @Body() body: UpdateApiKeyDto,
  ) {
    return this.apiKeys.update(member, id, body);
  }

  @Delete(':id')
  @Operation({
    id: 'revokeApiKey',
    summary: 'Revoke an API key (idempotent); requests with it then get API_KEY_INACTIVE',
    description:
      'NOT_FOUND when no key with this id belongs to your account. The role limits of create and edit apply: owner and admin revoke any key, a developer only keys without `audit:read`, a viewer none (ROLE_FORBIDDEN).',
    params: [KEY_ID_PARAM],
    ok: ApiKeyResponse,
    errors: ['ROLE_FORBIDDEN', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  })
  revoke(
    @CurrentMember() member: MemberActor,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: notFound })) id: string,
  ) {
    return this.apiKeys.revoke(member, id);
  }
}

function notFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No API key with this id in your account', {
    hint: 'GET /api/v1/api-keys lists your keys.',
  });
}
