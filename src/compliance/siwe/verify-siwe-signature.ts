import { getAddress, hashMessage, verifyMessage } from 'ethers';
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
/**
 * An EOA's signature is 65 bytes; a contract wallet's is what it accepts (a Safe's: its owners'
 * 65-byte signatures concatenated), bounded here: 20 owners' worth, and then some.
 */
export const MAX_SIGNATURE_BYTES = 2048;
const SIGNATURE = new RegExp(`^0x([0-9a-fA-F]{2}){65,${MAX_SIGNATURE_BYTES}}$`);

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
 * Never throws. Order: syntax, domain, chain, validity window, wallet, signer.
 * Not done here: nonce issuance/single use (the endpoint's store) and the on-chain ERC-1271
 * check of a contract wallet's signature, which a refusal for the signer alone carries
 * (`contractCheck`) for the caller to run (siwe-contract-signature.ts).
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
    return fail(
      'SIWE_INVALID',
      `signature must be 0x-prefixed hex of 65 to ${MAX_SIGNATURE_BYTES} bytes (an EOA's: 65)`,
    );
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

  const address = getAddress(siwe.address);
  if (
    expect.expectedAddress !== undefined &&
    address.toLowerCase() !== expect.expectedAddress.toLowerCase()
  ) {
    return fail('SIWE_SIGNER', 'message is signed for a different wallet than walletAddress');
  }
  const signer = signature.length === 132 ? recover(message, signature) : null;
  if (signer !== address) {
    return Object.assign(
      fail(
        'SIWE_SIGNER',
        signer === null && signature.length === 132
          ? 'signature is malformed'
          : 'signature is not from the address in the message',
      ),
      { contractCheck: { address, hash: hashMessage(message), signature } },
    );
  }
  return siweVerified(siwe, address);
}

/** The verified message's facts (also after a contract wallet accepted its signature). */
export function siweVerified(siwe: SiweMessage, address: string): SiweVerification {
  return {
    ok: true,
    nonce: siwe.nonce,
    address,
    issuedAt: siwe.issuedAt as string,
    ...(siwe.expirationTime ? { expirationTime: siwe.expirationTime } : {}),
  };
}

/** Asks the chain whether a contract wallet accepts a signature (ERC-1271). */
export type ContractSignatureCheck = (
  address: string,
  hash: string,
  signature: string,
) => Promise<boolean>;

/**
 * verifySiweSignature, then, for a message valid but for its signer, the wallet contract's own
 * judgement: a Safe accepts its owners' signatures (enough of them for its threshold, sorted by
 * owner address, each over the SafeMessage of the message's EIP-191 hash) through ERC-1271
 * isValidSignature(bytes32, bytes), as the siwe library and viem verify smart-account sign-ins.
 */
export async function verifySiweWithContractWallets(
  input: SiweSignedMessage,
  expect: SiweExpectations,
  contractAccepts: ContractSignatureCheck,
): Promise<SiweVerification> {
  const result = verifySiweSignature(input, expect);
  if (result.ok || !result.contractCheck) return result;
  const { address, hash, signature } = result.contractCheck;
  if (!(await contractAccepts(address, hash, signature)))
    return fail(
      'SIWE_SIGNER',
      "signature is neither the wallet key's nor one the wallet's contract accepts (ERC-1271 isValidSignature; a Safe needs enough owners' signatures for its threshold, sorted by owner address)",
    );
  return siweVerified(parse(input.message as string)!, address);
}
