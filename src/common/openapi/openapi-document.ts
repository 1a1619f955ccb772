import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorEnvelopeSchema } from './error-envelope.schema';
import { codesNamedFor, errorExample } from './error-examples';

type MediaType = { schema?: unknown; examples?: Record<string, unknown> };
type Operation = {
  operationId?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, { description?: string; content?: Record<string, MediaType> }>;
  'x-required-scope'?: string;
};

const VERSION_PREFIX = '/api/v1';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const ERROR_ENVELOPE_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

/**
 * The published contract: the document /docs serves and the typed client is generated from.
 * Built from the controllers' decorators, then finished so that a generator gets one method per
 * operation, an envelope type for every error and the auth each operation needs.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Compliance-gated DeFi transaction builder')
    .setDescription(
      'Builds UNSIGNED Uniswap v4 swap and liquidity transactions on Base Sepolia (chainId 84532) for ' +
        'wallets with an active compliance session. Every error is an `ErrorEnvelope` ' +
        '{error, code, message, hint, phase, details?, retryAfter?}: branch on `code`, show `hint`. ' +
        'The unversioned paths /auth/*, /onboarding/*, /verify and /defi/preflight/{address} answer too; each operation is listed once, ' +
        'under /api/v1, with its alias in the description. A TypeScript client is in clients/typescript.',
    )
    .setVersion('1')
    .addServer('/', 'This server (the host serving this document)')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'api-key')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'jwt')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    // Method names are the operation ids (lowerCamelCase); the [n] Nest adds to aliases goes.
    operationIdFactory: (_controllerKey, methodKey) => methodKey.replace(/\[\d+\]$/, ''),
    extraModels: [ErrorEnvelopeSchema],
  });
  return finishDocument(document);
}

/**
 * Aliases documented once, auth stated in every description, every error an ErrorEnvelope with
 * one named example per code the response names (so /docs shows a 403 as a 403's codes).
 */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  documentAliasesOnce(document);
  for (const [, , operation] of operationsOf(document)) {
    operation.description = [authRequirement(operation), operation.description]
      .filter(Boolean)
      .join('\n\n');
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (Number(status) < 400) continue;
      response.content ??= { 'application/json': { schema: ERROR_ENVELOPE_REF } };
      const media = response.content['application/json'];
      const codes = codesNamedFor(Number(status), response.description ?? '');
      if (media && !media.examples && codes.length > 0) {
        media.examples = Object.fromEntries(
          codes.map(({ code, phase }) => [code, errorExample(code, phase)]),
        );
      }
    }
  }
  return document;
}

/** Yields [path, method, operation] for every operation of the document. */
export function operationsOf(document: OpenAPIObject): Array<[string, string, Operation]> {
  const found: Array<[string, string, Operation]> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const methods = item as Record<string, Operation | undefined>;
    for (const method of METHODS) {
      const operation = methods[method];
      if (operation) found.push([path, method, operation]);
    }
  }
  return found;
}

/** The unversioned paths (spec §4) stay served; the document lists the /api/v1 one and names the alias. */
function documentAliasesOnce(document: OpenAPIObject): void {
  for (const path of Object.keys(document.paths)) {
    if (path.startsWith(`${VERSION_PREFIX}/`)) continue;
    const alias = document.paths[path] as Record<string, Operation | undefined>;
    const versioned = document.paths[`${VERSION_PREFIX}${path}`] as
      Record<string, Operation | undefined> | undefined;
    if (!versioned) continue;
    for (const method of METHODS) {
      const operation = versioned[method];
      if (!operation || !alias[method]) continue;
      delete alias[method];
      operation.description = [
        operation.description,
        `Also served at \`${method.toUpperCase()} ${path}\`.`,
      ]
        .filter(Boolean)
        .join('\n\n');
    }
    if (!METHODS.some((method) => alias[method])) delete document.paths[path];
  }
}

function authRequirement(operation: Operation): string {
  const scope = operation['x-required-scope'];
  if (scope)
    return `**Auth:** an API key with the \`${scope}\` scope (X-API-Key), or a dashboard login (Authorization: Bearer).`;
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return '**Auth:** none (public).';
  if (!schemes.includes('api-key'))
    return '**Auth:** a dashboard login only (Authorization: Bearer <accessToken> from POST /auth/login); API keys are refused.';
  return '**Auth:** an API key (X-API-Key) or a dashboard login (Authorization: Bearer).';
}
