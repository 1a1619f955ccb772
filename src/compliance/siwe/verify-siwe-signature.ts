import { getAddress, verifyMessage } from 'ethers';
import { SiweMessage } from 'siwe';

import type { SiweFailureReason, SiweVerification } from './siwe.types';

export type SiweSignedMessage = { message: unknown; signature: unknown };

export type SiweExpectations = {
  /** Our authority (host[:port]) as clients put it in the message; compared case-insensitively. */
  expectedDomain: string;
  expectedChainId: number;
  /** The wallet being bound; the message must be for it (and signed by it). */
  expectedAddress?: string;
  now: Date;
  /** A message issued longer ago than this is expired even without Expiration Time. Default 600. */
  maxAgeSeconds?: number;
  /** Tolerated clock difference for issuedAt / notBefore in the future. Default 60. */
  clockSkewSeconds?: number;
};

const MAX_MESSAGE_LENGTH = 4096;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

const fail = (reason: SiweFailureReason, message: string): SiweVerification => ({
  ok: false,
  reason,
  message,
});

function parse(message: string): SiweMessage | null {
  try {
    return new SiweMessage(message);
  } catch {
    return null;
  }
}

function recover(message: string, signature: string): string | null {
  try {
    return verifyMessage(message, signature);
  } catch {
    return null;
  }
}

/**
 * Checks a Sign-In-with-Ethereum (ERC-4361) message and its EIP-191 signature from an EOA.
 * Never throws. Order: syntax, domain, chain, validity window, signer.
 * Not done here: nonce issuance/single use (the endpoint's store) and EIP-1271 contract wallets.
 */
export function verifySiweSignature(
  input: SiweSignedMessage,
  expect: SiweExpectations,
): SiweVerification {
  const { message, signature } = input ?? {};
  if (typeof message !== 'string' || message.length === 0 || message.length > MAX_MESSAGE_LENGTH) {
    return fail(
      'SIWE_INVALID',
      `message must be an ERC-4361 text of at most ${MAX_MESSAGE_LENGTH} characters`,
    );
  }
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) {
    return fail('SIWE_INVALID', 'signature must be a 65-byte 0x-prefixed hex string');
  }
  const siwe = parse(message);
  if (!siwe) return fail('SIWE_INVALID', 'message is not a valid ERC-4361 message');
  if (siwe.version !== '1') return fail('SIWE_INVALID', 'only ERC-4361 version 1 is supported');

  if (siwe.domain.toLowerCase() !== expect.expectedDomain.toLowerCase()) {
    return fail(
      'SIWE_DOMAIN',
      `message is for domain "${siwe.domain}", expected "${expect.expectedDomain}"`,
    );
  }
  if (siwe.chainId !== expect.expectedChainId) {
    return fail(
      'SIWE_CHAIN',
      `message is for chain ${siwe.chainId}, expected ${expect.expectedChainId}`,
    );
  }

  const now = expect.now.getTime();
  const skewMs = (expect.clockSkewSeconds ?? 60) * 1000;
  const issuedAt = Date.parse(siwe.issuedAt ?? '');
  if (Number.isNaN(issuedAt)) return fail('SIWE_INVALID', 'message has no valid Issued At');
  if (issuedAt > now + skewMs) return fail('SIWE_INVALID', 'message is issued in the future');
  if (siwe.notBefore && Date.parse(siwe.notBefore) > now + skewMs) {
    return fail('SIWE_INVALID', 'message is not valid yet (Not Before)');
  }
  if (siwe.expirationTime && Date.parse(siwe.expirationTime) <= now) {
    return fail('SIWE_EXPIRED', 'message has expired (Expiration Time)');
  }
  if (now - issuedAt > (expect.maxAgeSeconds ?? 600) * 1000) {
    return fail('SIWE_EXPIRED', 'message is too old: sign a new one');
  }

  const signer = recover(message, signature);
  if (signer === null) return fail('SIWE_INVALID', 'signature is malformed');
  if (signer !== getAddress(siwe.address)) {
    return fail('SIWE_SIGNER', 'signature is not from the address in the message');
  }
  if (
    expect.expectedAddress !== undefined &&
    signer.toLowerCase() !== expect.expectedAddress.toLowerCase()
  ) {
    return fail('SIWE_SIGNER', 'message is signed for a different wallet than walletAddress');
  }
  return {
    ok: true,
    nonce: siwe.nonce,
    address: signer,
    issuedAt: siwe.issuedAt as string,
    ...(siwe.expirationTime ? { expirationTime: siwe.expirationTime } : {}),
  };
}
