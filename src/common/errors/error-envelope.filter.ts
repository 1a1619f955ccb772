import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { renderError } from './error-envelope';

/** Renders every error the app can produce as the spec §2.4 envelope. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorEnvelope');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    sendError(response, exception, this.logger);
  }
}

export function sendError(response: Response, exception: unknown, logger: Logger): void {
  const rendered = renderError(exception);
  if (rendered.unexpected) {
    const cause = rendered.unexpected.cause;
    logger.error(
      {
        errorId: rendered.unexpected.errorId,
        reqId: (response.req as { id?: string } | undefined)?.id,
        err: cause,
      },
      cause instanceof Error ? cause.stack : String(cause),
    );
  }
  if (response.headersSent) {
    response.end();
    return;
  }
  response.locals.errorCode = rendered.body.code;
  for (const [name, value] of Object.entries(rendered.headers)) response.setHeader(name, value);
  response.status(rendered.status).json(rendered.body);
}
