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

/**
 * No browser, proxy or CDN may keep a copy of this response (RFC 9111 §5.2.2.5; Pragma for
 * HTTP/1.0 caches). The authentication guard applies it to every protected route: their answers
 * are one caller's (account data, one-time nonces and challenges, refusals).
 */
export function preventStoring(response: Response): void {
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Pragma', 'no-cache');
}

/** Set before the handler runs, so the success and the error response of the route both carry it. */
@Injectable()
export class NoStoreInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    preventStoring(context.switchToHttp().getResponse<Response>());
    return next.handle();
  }
}

/**
 * For public routes whose responses carry secrets (login and refresh tokens). Protected routes
 * need no decorator: the authentication guard sets the same headers on all of them.
 */
export const NoStore = () => applyDecorators(UseInterceptors(NoStoreInterceptor));
