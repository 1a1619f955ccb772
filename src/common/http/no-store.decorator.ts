import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import type { Response } from 'express';
import type { Observable } from 'rxjs';

/** Set before the handler runs, so the success and the error response of the route both carry it. */
@Injectable()
export class NoStoreInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const response = context.switchToHttp().getResponse<Response>();
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Pragma', 'no-cache');
    return next.handle();
  }
}

/**
 * For responses that carry secrets (tokens, a new API key) or account data: no browser, proxy or
 * CDN may keep a copy (RFC 9111 §5.2.2.5; Pragma for HTTP/1.0 caches).
 */
export const NoStore = () => applyDecorators(UseInterceptors(NoStoreInterceptor));
