import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { checksumAddress } from '../address/checksum-address';

export const EVM_ADDRESS_CONSTRAINT = 'isEvmAddress';
const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/**
 * 0x + 40 hex. All-lower or all-upper hex is accepted as is; mixed case is an EIP-55 checksum and
 * must be a correct one (a wrong checksum usually means a typo in the address).
 */
export function isEvmAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !ADDRESS_PATTERN.test(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  try {
    return checksumAddress(value) === value;
  } catch {
    return false;
  }
}

/**
 * For a well-formed address whose mixed case is not its EIP-55 checksum: the checksummed form of
 * the same 40 hex digits (check them for a typo first: a bad checksum often means one).
 */
export function checksumSuggestion(value: unknown): string | undefined {
  if (typeof value !== 'string' || !ADDRESS_PATTERN.test(value)) return undefined;
  const checksummed = checksumAddress(value.toLowerCase());
  return isEvmAddress(value) ? undefined : checksummed;
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * A wallet: an address that can sign. The zero address has no key; bound to an account it would
 * block every other account from it, and a session for it can never be used. Tokens may later
 * name it (native ETH), so the rule is for wallet fields only.
 */
export function isWalletAddress(value: unknown): value is string {
  return isEvmAddress(value) && value !== ZERO_ADDRESS;
}

/** A wallet field (userAddress, walletAddress, a wallet path parameter): never the zero address. */
export function IsWalletAddress(options?: ValidationOptions): PropertyDecorator {
  return IsEvmAddress(options, { wallet: true });
}

export function IsEvmAddress(
  options?: ValidationOptions,
  rule: { wallet?: boolean } = {},
): PropertyDecorator {
  const valid = rule.wallet ? isWalletAddress : isEvmAddress;
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: EVM_ADDRESS_CONSTRAINT,
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: ({ property, value }: ValidationArguments) => {
          const suggestion = checksumSuggestion(value);
          if (rule.wallet && value === ZERO_ADDRESS)
            return `${property} must be a wallet address; the zero address cannot sign or hold a session`;
          return suggestion
            ? `${property} has a wrong EIP-55 checksum (mixed case); its checksummed form is ${suggestion}`
            : `${property} must be a 0x-prefixed 40-hex-character address (mixed case must be a valid EIP-55 checksum)`;
        },
        ...options,
      },
      validator: { validate: (value: unknown) => valid(value) },
    });
}
