import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error';
import { NoStore } from '../../common/http/no-store.decorator';
import { ApiErrors, JSON_BODY_ERRORS } from '../../common/openapi/api-errors.decorator';
import { CurrentPrincipal, Principal } from '../principal';
import { RequireDashboardLogin } from '../require-scope.decorator';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyListResponse, ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.response';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

/** Dashboard key management: JWT only, always scoped to the caller's account. */
@ApiTags('api-keys')
@NoStore()
@RequireDashboardLogin()
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Create an API key; the full key appears in this response only',
  })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ApiErrors(...JSON_BODY_ERRORS, 'SERVICE_UNAVAILABLE')
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto) {
    return this.apiKeys.create(
      { accountId: principal.accountId, userId: principal.userId },
      { name: body.name, scopes: body.scopes, expiresAt: body.expiresAt },
    );
  }

  @Get()
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: "List your account's API keys (never their secrets)",
  })
  @ApiOkResponse({ type: ApiKeyListResponse })
  @ApiErrors('SERVICE_UNAVAILABLE')
  async list(@CurrentPrincipal() principal: Principal) {
    return { items: await this.apiKeys.listForAccount(principal.accountId) };
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key (idempotent); requests with it then get API_KEY_INACTIVE',
    description: 'NOT_FOUND when no key with this id belongs to your account.',
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
