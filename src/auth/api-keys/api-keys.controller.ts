import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error';
import { ApiErrors, JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { CurrentPrincipal, Principal } from '../principal';
import { RequireDashboardLogin } from '../require-scope.decorator';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyListResponse, ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.response';
import { CreateApiKeyDto } from './dto/create-api-key.dto';
import { ListApiKeysQueryDto } from './dto/list-api-keys-query.dto';

/** Dashboard key management: JWT only, always scoped to the caller's account. */
@ApiTags('api-keys')
@RequireDashboardLogin()
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Idempotent()
  @Post()
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Create an API key; the full key appears in this response only',
    description:
      'At most 10 active keys on the free plan, 100 on pro, 1,000 on enterprise (revoked keys do not count): API_KEY_LIMIT_REACHED (409) beyond.',
  })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ApiErrors(...JSON_BODY_ERRORS, 'API_KEY_LIMIT_REACHED', 'SERVICE_UNAVAILABLE')
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto) {
    return this.apiKeys.create(
      { accountId: principal.accountId, userId: principal.userId },
      { name: body.name, scopes: body.scopes, expiresAt: body.expiresAt },
    );
  }

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: "List your account's API keys (never their secrets), newest first, one page at a time",
    description:
      'Pass limit (1-100, default 50); when nextCursor is not null, pass it as cursor for the next page.',
  })
  @ApiOkResponse({ type: ApiKeyListResponse })
  @ApiErrors('INVALID_PARAMS', 'SERVICE_UNAVAILABLE')
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListApiKeysQueryDto) {
    return this.apiKeys.listForAccount(principal.accountId, query);
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key (idempotent); requests with it then get API_KEY_INACTIVE',
    description: 'NOT_FOUND when no key with this id belongs to your account.',
  })
  @ApiParam({
    name: 'id',
    format: 'uuid',
    description: 'The key id (GET /api/v1/api-keys lists them).',
    example: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  })
  @ApiOkResponse({ type: ApiKeyResponse })
  @ApiErrors('NOT_FOUND', 'SERVICE_UNAVAILABLE')
  revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: notFound })) id: string,
  ) {
    return this.apiKeys.revoke(principal.accountId, id);
  }
}

function notFound(): ApiError {
  return new ApiError('NOT_FOUND', 'No API key with this id in your account', {
    hint: 'GET /api/v1/api-keys lists your keys.',
  });
}
