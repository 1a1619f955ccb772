import { verify } from '@otplib/totp';
import { generateTOTP } from '@otplib/uri';
import { randomBytes, randomInt } from 'node:crypto';
import { base32, nodeCrypto } from './otp-plugins';

/** RFC 6238 with the parameters every authenticator app supports: SHA-1, 6 digits, 30 s. */
export const TOTP_PERIOD_SECONDS = 30;
/** One step either side: a phone clock 30 s off, or a code typed as it rolled over. */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

export const TOTP_CODE = /^\d{6}$/;

export function newTotpSecret(): string {
  return base32.encode(randomBytes(20));
}

export function totpUri(issuer: string, label: string, secret: string): string {
  return generateTOTP({ issuer, label, secret });
}

/**
 * The time step `code` belongs to, when it is valid now and later than `afterStep` (a code, or
 * an earlier one, already used is refused: single use within its window); undefined otherwise.
 */
export async function verifiedTotpStep(
  secret: string,
  code: string,
  afterStep: number | null,
  now: number = Date.now(),
): Promise<number | undefined> {
  if (!TOTP_CODE.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    crypto: nodeCrypto,
    base32,
    epoch: Math.floor(now / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid ? result.timeStep : undefined;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

/** Ten codes like `k7m2p-x9qra` (about 49 bits each), shown once. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from(
      { length: 10 },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** As typed: any case, with or without the dash or spaces. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}
