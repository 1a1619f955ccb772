/**
 * Permit2 signatures instead of the Permit2.approve transaction (issue 11 §4): the EIP-712 typed
 * data we hand out (PermitSingle for the UniversalRouter, PermitBatch for the PositionManager),
 * built by @uniswap/permit2-sdk, and the checks a signed permit must pass before we encode it.
 * Pure: the wallet state (nonces, chain clock) comes in.
 */
import { AllowanceTransfer } from '@uniswap/permit2-sdk';
import { verifyTypedData } from 'ethers';
import type { FieldError } from '../../common/validation/validation-exception.factory';
import { checksumAddress } from '../../common/address/checksum-address';

/** Numbers as decimal strings (JSON), addresses checksummed. */
export interface PermitDetails {
  token: string;
  amount: string;
  expiration: string;
  nonce: string;
}

export interface PermitSingle {
  details: PermitDetails;
  spender: string;
  sigDeadline: string;
}

export interface PermitBatch {
  details: PermitDetails[];
  spender: string;
  sigDeadline: string;
}

export interface PermitTypedData<V> {
  domain: { name: string; chainId: number; verifyingContract: string };
  types: Record<string, Array<{ name: string; type: string }>>;
  values: V;
}

/** What a permit must grant: spender, and per token the amount and the current Permit2 nonce. */
export interface PermitExpectation {
  permit2: string;
  chainId: number;
  owner: string;
  spender: string;
  /** Chain clock (the batch's block timestamp). */
  now: number;
  tokens: Array<{ token: string; amount: bigint; nonce: number }>;
}

export function permitTypedData<V extends PermitSingle | PermitBatch>(
  values: V,
  permit2: string,
  chainId: number,
): PermitTypedData<V> {
  // permit2-sdk's shapes use ethers v5 BigNumberish: decimal strings pass through unchanged.
  const data = AllowanceTransfer.getPermitData(
    values as unknown as Parameters<typeof AllowanceTransfer.getPermitData>[0],
    permit2,
    chainId,
  );
  return {
    domain: data.domain as PermitTypedData<V>['domain'],
    types: data.types as PermitTypedData<V>['types'],
    values,
  };
}

/** The details we ask the user to sign for one token: exactly the amount, valid until the deadline. */
export function permitDetails(
  token: string,
  amount: bigint,
  nonce: number,
  deadline: number,
): PermitDetails {
  return {
    token: checksumAddress(token),
    amount: amount.toString(),
    expiration: deadline.toString(),
    nonce: nonce.toString(),
  };
}

/**
 * Field errors of a signed permit (empty when it is usable now): signer, spender, token, amount,
 * nonce (Permit2 rejects any but the current one), expiration and sigDeadline on the chain clock.
 * `field` is the request path: `permit` for a PermitSingle, `permitBatch` for a batch.
 */
export function checkSignedPermit(
  field: 'permit' | 'permitBatch',
  permit: PermitSingle | PermitBatch,
  signature: string,
  expect: PermitExpectation,
): FieldError[] {
  const errors: FieldError[] = [];
  const fail = (path: string, constraint: string, message: string) =>
    errors.push({ field: path, constraint, message });
  const list = Array.isArray(permit.details) ? permit.details : [permit.details];
  const at = (i: number) =>
    Array.isArray(permit.details) ? `${field}.details.${i}` : `${field}.details`;

  if (checksumAddress(permit.spender) !== checksumAddress(expect.spender))
    fail(`${field}.spender`, 'permitSpender', `spender must be ${checksumAddress(expect.spender)}`);
  if (BigInt(permit.sigDeadline) < BigInt(expect.now))
    fail(`${field}.sigDeadline`, 'permitExpired', 'sigDeadline has passed; sign a new permit');
  if (list.length !== expect.tokens.length)
    fail(
      `${field}.details`,
      'permitTokens',
      `the permit must cover ${expect.tokens.length} token(s)`,
    );
  expect.tokens.forEach((want, i) => {
    const got = list[i];
    if (!got) return;
    if (checksumAddress(got.token) !== checksumAddress(want.token))
      fail(`${at(i)}.token`, 'permitToken', `token must be ${checksumAddress(want.token)}`);
    if (BigInt(got.amount) < want.amount)
      fail(`${at(i)}.amount`, 'permitAmount', `amount must be at least ${want.amount}`);
    if (BigInt(got.nonce) !== BigInt(want.nonce))
      fail(
        `${at(i)}.nonce`,
        'permitNonce',
        `nonce must be the current Permit2 nonce ${want.nonce} (a permit is single-use)`,
      );
    if (BigInt(got.expiration) < BigInt(expect.now))
      fail(`${at(i)}.expiration`, 'permitExpired', 'expiration has passed; sign a new permit');
  });
  if (errors.length > 0) return errors;

  const { domain, types } = permitTypedData(permit, expect.permit2, expect.chainId);
  let signer: string | null = null;
  try {
    signer = verifyTypedData(domain, types, permit, signature);
  } catch {
    signer = null;
  }
  if (signer === null || checksumAddress(signer) !== checksumAddress(expect.owner))
    fail(
      'permitSignature',
      'permitSigner',
      `permitSignature must be the EIP-712 signature of ${field} by userAddress ${checksumAddress(expect.owner)}`,
    );
  return errors;
}
