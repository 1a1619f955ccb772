import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { principalOf } from './principal';

/** Puts `authMethod` (api_key | jwt) on every successful object body of a protected endpoint (spec §5.6). */
@Injectable()
export class AuthMethodInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const principal =
      context.getType() === 'http' ? principalOf(context.switchToHttp().getRequest()) : undefined;
    if (!principal) return next.handle();
    return next
      .handle()
      .pipe(
        map((body: unknown) =>
          body !== null &&
          typeof body === 'object' &&
          !Array.isArray(body) &&
          !Buffer.isBuffer(body)
            ? { authMethod: principal.method, ...body }
            : body,
        ),
      );
  }
}
