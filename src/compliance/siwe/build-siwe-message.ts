import { randomBytes } from 'node:crypto';

import { getAddress } from 'ethers';
import { SiweMessage } from 'siwe';

export type BuildSiweMessageParams = {
  /** RFC 3986 authority that asks for the signature, e.g. "app.example.com" or "localhost:3000". */
  domain: string;
  address: string;
  uri: string;
  chainId: number;
  /** Server-issued, at least 8 alphanumeric characters (see `newSiweNonce`). */
  nonce: string;
  issuedAt: Date | string;
  statement?: string;
  expirationTime?: Date | string;
  notBefore?: Date | string;
};

const iso = (value: Date | string | undefined): string | undefined =>
  value === undefined ? undefined : new Date(value).toISOString();

/**
 * The ERC-4361 text a wallet signs (EIP-191 personal_sign). Throws on invalid parameters: it is
 * fed with server-side values, and siwe's ABNF parser re-checks the result.
 */
export function buildSiweMessage(params: BuildSiweMessageParams): string {
  return new SiweMessage({
    domain: params.domain,
    address: getAddress(params.address.toLowerCase()),
    uri: params.uri,
    version: '1',
    chainId: params.chainId,
    nonce: params.nonce,
    issuedAt: iso(params.issuedAt),
    statement: params.statement,
    expirationTime: iso(params.expirationTime),
    notBefore: iso(params.notBefore),
  }).prepareMessage();
}

/** 128 random bits as 32 hex characters: a valid ERC-4361 nonce (alphanumeric, >= 8). */
export function newSiweNonce(): string {
  return randomBytes(16).toString('hex');
}
