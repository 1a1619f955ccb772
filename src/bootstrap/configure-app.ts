import { INestApplication, Logger as NestLogger } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import express, { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { ApiError } from '../common/errors/api-error';
import { sendError } from '../common/errors/error-envelope.filter';
import { InFlightRequests } from '../lifecycle/in-flight-requests';

export const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Everything main.ts applies to the app, shared with the e2e suites so that they test the real
 * request pipeline. The app must be created with `{ bodyParser: false, bufferLogs: true }`.
 */
export function configureApp(app: INestApplication): void {
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  const http = app.getHttpAdapter().getInstance() as express.Express;
  http.disable('x-powered-by');
  http.set('query parser', 'simple');
  app.use(app.get(InFlightRequests).middleware);
  app.use(helmet());
  app.use(express.json({ limit: BODY_LIMIT_BYTES, strict: true }));
  // Body-parser failures never reach Nest's filters: render them here, as validation errors.
  const logger = new NestLogger('BodyParser');
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    sendError(res, bodyParserError(err), logger);
  });
  setUpOpenApi(app);
}

function bodyParserError(err: unknown): unknown {
  const e = err as { type?: unknown; status?: unknown };
  if (typeof e.type !== 'string') return err;
  if (e.status === 413)
    return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is larger than 16 KiB');
  if (e.type === 'entity.parse.failed')
    return new ApiError('INVALID_PARAMS', 'Request body is not valid JSON');
  return new ApiError('INVALID_PARAMS', 'Request body could not be read (send UTF-8 JSON)');
}

function setUpOpenApi(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Compliance-gated DeFi transaction builder')
      .setDescription(
        'Builds UNSIGNED Uniswap v4 swap and liquidity transactions on Base Sepolia (chainId 84532) for ' +
          'wallets with an active compliance session. Every error is an envelope ' +
          '{error, code, message, hint, phase, details?}: branch on `code`, show `hint`.',
      )
      .setVersion('1')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'api-key')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'jwt')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json' });
}
