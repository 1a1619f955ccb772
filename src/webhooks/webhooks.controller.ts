import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiTags } from '@nestjs/swagger';
import { CurrentMember, MemberActor } from '../auth/member-actor';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { RequireRole } from '../auth/require-role.decorator';
import { RequireDashboardLogin } from '../auth/require-scope.decorator';
import { JSON_BODY_ERRORS } from '../common/openapi/api-errors.decorator';
import { Operation } from '../common/openapi/operation.decorator';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { ListDeliveriesQueryDto } from './dto/list-deliveries-query.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import {
  CreatedWebhookResponse,
  WebhookDeliveryListResponse,
  WebhookListResponse,
  WebhookResponse,
  WebhookTestResponse,
} from './dto/webhook.responses';
import { WebhooksService } from './webhooks.service';

const ID_PARAM = {
  name: 'id',
  format: 'uuid',
  description: 'The webhook id (GET /api/v1/webhooks lists them).',
  example: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
} as const;

/**
 * Signed webhooks (Standard Webhooks): dashboard login, owners and admins. Each delivery carries
 * webhook-id (dedupe on it: a retry or a rare duplicate has the same id), webhook-timestamp and
 * webhook-signature `v1,<base64 HMAC-SHA256 of id.timestamp.body>`.
 */
@ApiTags('webhooks')
@RequireDashboardLogin()
@RequireRole('owner', 'admin')
@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @Operation({
    id: 'createWebhook',
    summary: 'Register a webhook endpoint; the signing secret appears in this response only',
    description:
      'Events: session.activated, session.expiring (WEBHOOK_SESSION_EXPIRING_LEAD_SECONDS before activeUntil, default 1 h), session.revoked, transaction.confirmed, transaction.reverted (transactions relayed through the service, with the decoded revert), api_key.created, api_key.revoked, quota.threshold (80 % and 100 % of the monthly quota), compliance.policy_updated (an owner or admin set the compliance policy). Body of each delivery: {type, id, createdAt, data}. Retries with backoff (about 8 attempts over 24 h); an endpoint failing for 5 days is disabled.',
    created: CreatedWebhookResponse,
    errors: [
      ...JSON_BODY_ERRORS,
      'WEBHOOK_URL_NOT_ALLOWED',
      'ROLE_FORBIDDEN',
      'SERVICE_UNAVAILABLE',
    ],
  })
  create(@Body() body: CreateWebhookDto, @CurrentMember() member: MemberActor) {
    return this.webhooks.create(member, body);
  }

  @Get()
  @Operation({
    id: 'listWebhooks',
    summary: "Your account's webhook endpoints, newest first",
    ok: WebhookListResponse,
    errors: ['ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  list(@CurrentPrincipal() principal: Principal) {
    return this.webhooks.list(principal.accountId);
  }

  @Get(':id')
  @Operation({
    id: 'getWebhook',
    summary: 'One webhook endpoint (never its secret)',
    params: [ID_PARAM],
    ok: WebhookResponse,
    errors: ['NOT_FOUND', 'ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.webhooks.get(principal.accountId, id);
  }

  @Patch(':id')
  @Operation({
    id: 'updateWebhook',
    summary: 'Change the URL, the events or the description, or turn the endpoint off and on',
    params: [ID_PARAM],
    ok: WebhookResponse,
    errors: [...JSON_BODY_ERRORS, 'NOT_FOUND', 'WEBHOOK_URL_NOT_ALLOWED', 'ROLE_FORBIDDEN'],
  })
  update(
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
    @CurrentMember() member: MemberActor,
  ) {
    return this.webhooks.update(member, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Operation({
    id: 'deleteWebhook',
    summary: 'Delete the endpoint and its delivery history',
    params: [ID_PARAM],
    noContent: 'Deleted',
    errors: ['NOT_FOUND', 'ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  async remove(@Param('id') id: string, @CurrentMember() member: MemberActor): Promise<void> {
    await this.webhooks.remove(member, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Operation({
    id: 'rotateWebhookSecret',
    summary: 'A new signing secret (shown once); the previous one keeps signing alongside for 24 h',
    description:
      'During the 24 h, webhook-signature carries two space-separated `v1,` signatures: receivers holding either secret verify.',
    params: [ID_PARAM],
    ok: CreatedWebhookResponse,
    errors: ['NOT_FOUND', 'ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  rotateSecret(@Param('id') id: string, @CurrentMember() member: MemberActor) {
    return this.webhooks.rotateSecret(member, id);
  }

  @Post(':id/test')
  @HttpCode(202)
  @Operation({
    id: 'testWebhook',
    summary: 'Send a webhook.test event to this endpoint (follow it in its deliveries)',
    params: [ID_PARAM],
    errors: ['NOT_FOUND', 'ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  @ApiAcceptedResponse({ type: WebhookTestResponse })
  test(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.webhooks.sendTest(principal.accountId, id);
  }

  @Get(':id/deliveries')
  @Operation({
    id: 'listWebhookDeliveries',
    summary:
      'Deliveries of this endpoint, newest first, with every attempt (status code, duration, error) and the next retry',
    description: 'Pass limit (1-100, default 20); when nextCursor is not null, pass it as cursor.',
    params: [ID_PARAM],
    ok: WebhookDeliveryListResponse,
    errors: ['INVALID_PARAMS', 'NOT_FOUND', 'ROLE_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
  })
  deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: ListDeliveriesQueryDto,
  ) {
    return this.webhooks.deliveries(principal.accountId, id, query);
  }
}
