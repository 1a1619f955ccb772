import { ValidationError } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { checksumSuggestion, EVM_ADDRESS_CONSTRAINT } from './is-evm-address';

export interface FieldError {
  field: string;
  constraint: string;
  message: string;
  /** A bad EIP-55 checksum: the checksummed form of the address sent. */
  suggestion?: string;
}

/** Flattens class-validator's tree (nested DTOs, arrays) into one entry per failed constraint. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => {
      const suggestion =
        constraint === EVM_ADDRESS_CONSTRAINT ? checksumSuggestion(error.value) : undefined;
      return {
        field,
        constraint: constraint === 'whitelistValidation' ? 'unknownField' : constraint,
        message,
        ...(suggestion ? { suggestion } : {}),
      };
    });
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
    const suggested = details.find((d) => d.suggestion);
    const hint = suggested
      ? `${suggested.field}: the mixed case is not a valid EIP-55 checksum. If the hex digits are right, send ${suggested.suggestion} (or the address in lower case); otherwise check it for a typo.`
      : undefined;
    return new ApiError('INVALID_ADDRESS', `Invalid address in ${fields}`, { details, hint });
  }
  const fields = [...new Set(details.map((d) => d.field))].join(', ');
  return new ApiError('INVALID_PARAMS', `Request validation failed: ${fields}`, { details });
}
