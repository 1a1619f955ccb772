import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { validationExceptionFactory } from './validation-exception.factory';

/**
 * The global ValidationPipe. The request-validation guard runs it BEFORE authentication (spec §7
 * orders validation first); the results are remembered per raw object so the pipe stage that Nest
 * runs after the guards does not validate the same body twice.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  private readonly validated = new WeakMap<object, unknown>();

  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      // Values are read only to suggest a checksummed address; they are never echoed back.
      validationError: { target: false, value: true },
      exceptionFactory: validationExceptionFactory,
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (typeof value === 'object' && value !== null && this.validated.has(value)) {
      return this.validated.get(value);
    }
    const result = await super.transform(value, metadata);
    if (typeof value === 'object' && value !== null) this.validated.set(value, result);
    return result;
  }
}
