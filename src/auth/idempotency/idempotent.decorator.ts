import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** A POST with side effects that a client may retry safely with an Idempotency-Key. */
export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Any unique string (a UUID). A retry with the same key and body within 24 h returns the first response (header Idempotent-Replayed: true) instead of running again; the same key with another body gets 422 IDEMPOTENCY_KEY_REUSED. Keys belong to the caller (the user or API key): the same key from another caller runs on its own. Only successful responses are kept.',
    }),
    ApiErrors('IDEMPOTENCY_KEY_REUSED'),
  );
