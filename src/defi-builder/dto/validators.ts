/**
 * Field rules of the swap and liquidity bodies that class-validator does not ship: unsigned
 * integers as decimal strings (uint128 fields: JSON numbers lose precision past 2^53), a
 * deadline in the future, and the cross-field rules of the swap body.
 */
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { isEvmAddress } from '../../common/validation/is-evm-address';

export const UINT128_LIMIT = 1n << 128n;
const POSITIVE = /^[1-9][0-9]*$/;
const NON_NEGATIVE = /^(0|[1-9][0-9]*)$/;

export function register(
  name: string,
  message: string,
  validate: (value: unknown, args: ValidationArguments) => boolean,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message, ...options },
      validator: { validate },
    });
}

/** A decimal integer string below 2^128 (uint128 on-chain); positive unless `allowZero`. */
export function IsUint128String(
  opts: { allowZero?: boolean } = {},
  options?: ValidationOptions,
): PropertyDecorator {
  return IsUintString(128, opts, options);
}

/** A decimal integer string below 2^bits (uintN on-chain); positive unless `allowZero`. */
export function IsUintString(
  bits: number,
  opts: { allowZero?: boolean } = {},
  options?: ValidationOptions,
): PropertyDecorator {
  const limit = 1n << BigInt(bits);
  const pattern = opts.allowZero ? NON_NEGATIVE : POSITIVE;
  const kind = opts.allowZero ? 'a non-negative' : 'a positive';
  return register(
    `isUint${bits}String`,
    `$property must be ${kind} decimal integer string${bits === 128 ? ' (smallest token units)' : ''} below 2^${bits}`,
    (value) =>
      typeof value === 'string' &&
      pattern.test(value) &&
      value.length <= 78 &&
      BigInt(value) < limit,
    options,
  );
}

/** The field may only be sent with the given tradeType (EXACT_INPUT when tradeType is omitted). */
export function OnlyWithTradeType(
  tradeType: 'EXACT_INPUT' | 'EXACT_OUTPUT',
  options?: ValidationOptions,
): PropertyDecorator {
  return register(
    'onlyWithTradeType',
    `$property applies to tradeType ${tradeType} only`,
    (_value, args) =>
      ((args.object as { tradeType?: string }).tradeType ?? 'EXACT_INPUT') === tradeType,
    options,
  );
}

/** Unix seconds strictly in the future (by the server clock) and below 2^48. */
export function IsFutureUnixSeconds(options?: ValidationOptions): PropertyDecorator {
  return register(
    'isFutureUnixSeconds',
    '$property must be a unix timestamp in seconds in the future',
    (value) =>
      typeof value === 'number' &&
      Number.isSafeInteger(value) &&
      value > Math.floor(Date.now() / 1000) &&
      value < 2 ** 48,
    options,
  );
}

/** The field must differ (as an address) from another field of the same body. */
export function IsDifferentAddressFrom(
  other: string,
  options?: ValidationOptions,
): PropertyDecorator {
  return register(
    'isDifferentAddressFrom',
    `$property must be a different token from ${other}`,
    (value, args) => {
      const otherValue = (args.object as Record<string, unknown>)[other];
      if (!isEvmAddress(value) || !isEvmAddress(otherValue)) return true; // the address rule reports those
      return BigInt(value) !== BigInt(otherValue);
    },
    options,
  );
}

/** zeroForOne, when given, must match the address order of tokenIn/tokenOut (spec §4 rule 3). */
export function MatchesTokenOrder(options?: ValidationOptions): PropertyDecorator {
  return register(
    'matchesTokenOrder',
    '$property must be true when tokenIn sorts below tokenOut (selling currency0) and false otherwise',
    (value, args) => {
      const { tokenIn, tokenOut } = args.object as Record<string, unknown>;
      if (typeof value !== 'boolean' || !isEvmAddress(tokenIn) || !isEvmAddress(tokenOut))
        return true;
      if (BigInt(tokenIn) === BigInt(tokenOut)) return true;
      return value === BigInt(tokenIn) < BigInt(tokenOut);
    },
    options,
  );
}

/** token0 must sort below token1 by address value (spec §1 pool ordering rule). */
export function IsAddressAbove(other: string, options?: ValidationOptions): PropertyDecorator {
  return register(
    'isAddressAbove',
    `$property must be greater than ${other} by address value (token0 < token1)`,
    (value, args) => {
      const otherValue = (args.object as Record<string, unknown>)[other];
      if (!isEvmAddress(value) || !isEvmAddress(otherValue)) return true;
      return BigInt(value) > BigInt(otherValue);
    },
    options,
  );
}
