import { ConfigType, registerAs } from '@nestjs/config';
import { APP_MODES } from './app.config';
import { envEnum, envInt, envOptional, envString, InvalidConfigError } from './env-reader';

/** ERC-4361 nonces from GET /onboarding/nonce live this long (the SIWE message's max age too). */
export const SIWE_NONCE_TTL_SECONDS = 600;
/** Chain every SIWE message must name (spec §1: the test network, Base Sepolia). */
export const SIWE_CHAIN_ID = 84532;

/** A verify challenge (GET /verify/challenge) is single-use and lives this long. */
export const VERIFY_CHALLENGE_TTL_SECONDS = 600;
/** How far a proof's `now` may be from the server's clock. */
export const PROOF_CLOCK_SKEW_SECONDS = 300;

/**
 * Onboarding and compliance sessions: SIWE domain, where the ZK verifier's inputs are, and the
 * attester key that opens sessions on the ComplianceRegistry. Environment only: the key material
 * itself (verification key file, issuer point, devnet attester default) is loaded and checked by
 * the compliance module's ComplianceKeys provider. Production must configure its own keys.
 */
export const complianceConfig = registerAs('compliance', () => {
  const env = process.env;
  const production = envEnum(env, 'APP_MODE', APP_MODES, 'demo') === 'production';
  const siweDomain = envString(env, 'SIWE_DOMAIN', 'localhost');
  if (!/^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/.test(siweDomain)) {
    throw new InvalidConfigError(
      'SIWE_DOMAIN',
      'must be an RFC 3986 authority: host[:port]',
      siweDomain,
    );
  }
  return {
    siweDomain,
    /** The URI put in server-prepared SIWE messages (clients may sign any URI). */
    siweUri: envString(env, 'SIWE_URI', `https://${siweDomain}`),
    siweChainId: SIWE_CHAIN_ID,
    siweNonceTtlSeconds: SIWE_NONCE_TTL_SECONDS,
    verificationKeyPath: envString(
      env,
      'ZK_VERIFICATION_KEY_PATH',
      'circuits/build/verification_key.json',
    ),
    /** `"<x>,<y>"`; unset: the public devnet issuer (demo only). Parsed by ComplianceKeys. */
    issuerPublicKey: issuerPublicKey(env, production),
    /** The demo issuer's signing key (CLI `credentials issue`); unset: the public devnet issuer. */
    issuerPrivateKey: envOptional(env, 'ZK_ISSUER_PRIVATE_KEY'),
    production,
    /** Unset: devnet account 0 (demo only). */
    attesterPrivateKey: attesterPrivateKey(env, production),
    /** Worker threads verifying proofs; 0 verifies on the event loop. Unset: cores - 1 (1..4). */
    zkVerifyThreads: envOptional(env, 'ZK_VERIFY_THREADS')
      ? envInt(env, 'ZK_VERIFY_THREADS', 1, { min: 0, max: 16 })
      : undefined,
    verifyChallengeTtlSeconds: VERIFY_CHALLENGE_TTL_SECONDS,
    proofClockSkewSeconds: PROOF_CLOCK_SKEW_SECONDS,
    /** Length of a compliance session opened by the demo activation or a verified proof. */
    sessionTtlSeconds: envInt(env, 'SESSION_TTL_SECONDS', 24 * 60 * 60, {
      min: 60,
      max: 30 * 24 * 60 * 60,
    }),
    /** How long an activation waits for its transaction to be mined before answering 502. */
    attesterReceiptTimeoutMs: envInt(env, 'ATTESTER_RECEIPT_TIMEOUT_MS', 30_000, {
      min: 1_000,
      max: 300_000,
    }),
  };
});

export type ComplianceConfig = ConfigType<typeof complianceConfig>;

function issuerPublicKey(
  env: Record<string, string | undefined>,
  production: boolean,
): string | undefined {
  const given = envOptional(env, 'ZK_ISSUER_PUBLIC_KEY');
  if (given === undefined && production)
    throw new InvalidConfigError(
      'ZK_ISSUER_PUBLIC_KEY',
      'is required in production mode ("<x>,<y>")',
      undefined,
    );
  return given;
}

function attesterPrivateKey(
  env: Record<string, string | undefined>,
  production: boolean,
): string | undefined {
  const given = envOptional(env, 'ATTESTER_PRIVATE_KEY');
  if (given === undefined) {
    if (production)
      throw new InvalidConfigError(
        'ATTESTER_PRIVATE_KEY',
        'is required in production mode',
        undefined,
      );
    return undefined;
  }
  if (!/^0x[0-9a-fA-F]{64}$/.test(given)) {
    throw new InvalidConfigError(
      'ATTESTER_PRIVATE_KEY',
      'must be 0x followed by 64 hex characters',
      given,
    );
  }
  return given;
}
