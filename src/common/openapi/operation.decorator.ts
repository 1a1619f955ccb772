import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiParamOptions,
  getSchemaPath,
  HeadersObject,
} from '@nestjs/swagger';
import type { ErrorCode } from '../errors/error-catalogue';
import { ApiErrors } from './api-errors.decorator';
import type { NamedCode } from './error-examples';

/** One operation's contract: its id and words, its success body, path params and error codes. */
export interface OperationSpec {
  id: string;
  summary: string;
  description?: string;
  /** The 200 body, or `created` for a 201. */
  ok?: Type<unknown>;
  /** Other shapes the 200 body takes (a query option's): the 200 is then oneOf `ok` and these. */
  okAlternatives?: Array<Type<unknown>>;
  /** Headers the 200 carries (whatever its body's shape). */
  okHeaders?: HeadersObject;
  created?: Type<unknown>;
  /** A 204 with no body, and what it means. */
  noContent?: string;
  params?: ApiParamOptions[];
  errors: Array<ErrorCode | NamedCode>;
}

/**
 * The OpenAPI stack every controller method carries, composed once so that a controller lists
 * what differs (the words and the codes) rather than the same five decorators:
 *
 *   @Operation({ id: 'revokeApiKey', summary: '...', params: [KEY_ID_PARAM], ok: ApiKeyResponse,
 *                errors: ['ROLE_FORBIDDEN', 'NOT_FOUND'] })
 */
export function Operation(spec: OperationSpec): MethodDecorator {
  const { id: operationId, summary, description } = spec;
  return applyDecorators(
    ApiOperation(description ? { operationId, summary, description } : { operationId, summary }),
    ...(spec.params ?? []).map((param) => ApiParam(param)),
    ...(spec.ok && !spec.okAlternatives
      ? [ApiOkResponse({ type: spec.ok, headers: spec.okHeaders })]
      : []),
    ...(spec.ok && spec.okAlternatives
      ? oneOfOk(spec.ok, spec.okAlternatives, spec.okHeaders)
      : []),
    ...(spec.created ? [ApiCreatedResponse({ type: spec.created })] : []),
    ...(spec.noContent ? [ApiNoContentResponse({ description: spec.noContent })] : []),
    ApiErrors(...spec.errors),
  );
}

function oneOfOk(
  ok: Type<unknown>,
  alternatives: Array<Type<unknown>>,
  headers: HeadersObject | undefined,
): MethodDecorator[] {
  const models = [ok, ...alternatives];
  return [
    ApiExtraModels(...models),
    ApiOkResponse({
      schema: { oneOf: models.map((model) => ({ $ref: getSchemaPath(model) })) },
      headers,
    }),
  ];
}
