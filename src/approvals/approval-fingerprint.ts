import { createHash } from 'node:crypto';

/**
 * Fields of a build's body that do not change the trade: `approvalId` names the request,
 * `deadline` is when the signed transaction stops being valid (a build sent again after the
 * approval gets a fresh one by default), and a Permit2 signature replaces approval transactions.
 */
const NOT_THE_TRADE: ReadonlySet<string> = new Set([
  'approvalId',
  'deadline',
  'permit',
  'permitBatch',
  'permitSignature',
]);

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The trade a build asks for, as one hash: the operation, the chain and the body (wallet, tokens,
 * amounts, route bounds: slippage, minimum out, pool or route) with keys sorted and addresses
 * lower-cased, so the same trade sent again matches and any other body does not.
 */
export function approvalFingerprint(
  operation: string,
  chainId: number,
  request: Record<string, unknown>,
): string {
  const canonical = canonicalJson({ operation, chainId, request: tradeOf(request) });
  return createHash('sha256').update(canonical).digest('hex');
}

/** The body without the fields that do not change the trade (what the request row shows). */
export function tradeOf(request: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(request).filter(
      ([key, value]) => !NOT_THE_TRADE.has(key) && value !== undefined,
    ),
  );
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (typeof value === 'string') return ADDRESS.test(value) ? value.toLowerCase() : value;
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}
