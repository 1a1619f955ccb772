import { ValidationError } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { checksumSuggestion, EVM_ADDRESS_CONSTRAINT } from './is-evm-address';

export interface FieldError {
  field: string;
  constraint: string;
  message: string;
  /** A bad EIP-55 checksum: the checksummed form of the address sent. */
  suggestion?: string;
  /** A token symbol ("WETH") sent where an address goes. */
  symbol?: string;
}

/** A value that reads as a token symbol rather than a mistyped address. */
const SYMBOL_LIKE = /^(?!0x)[A-Za-z][A-Za-z0-9.]{0,15}$/;

/** Flattens class-validator's tree (nested DTOs, arrays) into one entry per failed constraint. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => {
      const address = constraint === EVM_ADDRESS_CONSTRAINT;
      const suggestion = address ? checksumSuggestion(error.value) : undefined;
      const symbol =
        address && typeof error.value === 'string' && SYMBOL_LIKE.test(error.value)
          ? error.value
          : undefined;
      return {
        field,
        constraint: constraint === 'whitelistValidation' ? 'unknownField' : constraint,
        message,
        ...(suggestion ? { suggestion } : {}),
        ...(symbol ? { symbol } : {}),
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
    const symbol = details.find((d) => d.symbol);
    const hint = suggested
      ? `${suggested.field}: the mixed case is not a valid EIP-55 checksum. If the hex digits are right, send ${suggested.suggestion} (or the address in lower case); otherwise check it for a typo.`
      : symbol
        ? `${symbol.field}: send the token's address, not its symbol (${symbol.symbol}): GET /api/v1/defi/config lists each token of the market with its address (tokens[].address; native ETH is 0x0000000000000000000000000000000000000000).`
        : undefined;
    return new ApiError('INVALID_ADDRESS', `Invalid address in ${fields}`, { details, hint });
  }
  const fields = [...new Set(details.map((d) => d.field))].join(', ');
  return new ApiError('INVALID_PARAMS', `Request validation failed: ${fields}`, { details });
}
