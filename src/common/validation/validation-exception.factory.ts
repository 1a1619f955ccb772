import { ValidationError } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { EVM_ADDRESS_CONSTRAINT } from './is-evm-address';

export interface FieldError {
  field: string;
  constraint: string;
  message: string;
}

/** Flattens class-validator's tree (nested DTOs, arrays) into one entry per failed constraint. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => ({
      field,
      constraint: constraint === 'whitelistValidation' ? 'unknownField' : constraint,
      message,
    }));
    return [...own, ...flattenValidationErrors(error.children ?? [], field)];
  });
}

export function validationExceptionFactory(errors: ValidationError[]): ApiError {
  const details = flattenValidationErrors(errors);
  return toValidationError(details);
}

export function toValidationError(details: FieldError[]): ApiError {
  const onlyAddresses =
    details.length > 0 && details.every((d) => d.constraint === EVM_ADDRESS_CONSTRAINT);
  if (onlyAddresses) {
    const fields = [...new Set(details.map((d) => d.field))].join(', ');
    return new ApiError('INVALID_ADDRESS', `Invalid address in ${fields}`, { details });
  }
  const fields = [...new Set(details.map((d) => d.field))].join(', ');
  return new ApiError('INVALID_PARAMS', `Request validation failed: ${fields}`, { details });
}
