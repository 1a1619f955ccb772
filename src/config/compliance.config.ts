import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { appModeOf } from './app.config';
import { envBool, envEnum, envInt, envOptional, envString, invalidConfig } from './env-reader';
import { pkcs11KeySettingsOf, type Pkcs11KeySettings } from './pkcs11-settings';

/** What signs the attester's transactions: a key in the environment, or a key in a PKCS#11 token. */
export const ATTESTER_SIGNERS = ['key', 'pkcs11'] as const;
export type AttesterSignerKind = (typeof ATTESTER_SIGNERS)[number];

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
  const production = appModeOf(env) === 'production';
  const siweDomain = siweDomainOf(env, production);
  const attesterSigner = envEnum(env, 'ATTESTER_SIGNER', ATTESTER_SIGNERS, 'key');
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
    /** The proving key served to provers at /zk/ (GET /verify/artifacts): the ceremony's zkey. */
    provingKeyPath: envString(
      env,
      'ZK_PROVING_KEY_PATH',
      'circuits/build/compliance_credential.zkey',
    ),
    /**
     * A production start with the repository's test trusted setup (one local contributor) is
     * refused unless this says it is a test network (checkTrustedSetup, compliance layer).
     */
    zkTestSetupAllowed: envBool(env, 'ZK_TEST_SETUP_ALLOWED', false),
    /** `"<x>,<y>"`; unset: the public devnet issuer (demo only). Parsed by ComplianceKeys. */
    issuerPublicKey: issuerPublicKey(env, production),
    /** The demo issuer's signing key (CLI `credentials issue`); unset: the public devnet issuer. */
    issuerPrivateKey: envOptional(env, 'ZK_ISSUER_PRIVATE_KEY'),
    production,
    /**
     * `key`: ATTESTER_PRIVATE_KEY signs (unset: devnet account 0, demo only). `pkcs11`: the key
     * labelled PKCS11_KEY_LABEL in a PKCS#11 token signs; ATTESTER_PRIVATE_KEY must then be unset.
     */
    attesterSigner,
    attesterPrivateKey: attesterPrivateKey(env, production, attesterSigner),
    /** The token key (ATTESTER_SIGNER=pkcs11): module, token, PIN, PKCS11_KEY_LABEL. */
    attesterPkcs11: attesterPkcs11(env, attesterSigner),
    /**
     * The standby attester (none by default): a second registry attester that signs when the
     * primary cannot pay for gas or the registry refuses it. ATTESTER_STANDBY_PRIVATE_KEY with a
     * key signer, PKCS11_STANDBY_KEY_LABEL (same token) with a PKCS#11 signer.
     */
    attesterStandby: attesterStandby(env, attesterSigner),
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
    /** The most the attester pays per gas (EIP-1559 maxFeePerGas), in wei: above it nothing is sent. */
    attesterMaxFeeWei: envUnits(env, 'ATTESTER_MAX_FEE_GWEI', '50', 9),
    /** A transaction not mined after this long is replaced (same nonce, fees bumped). */
    attesterReplaceAfterMs: envInt(env, 'ATTESTER_REPLACE_AFTER_MS', 12_000, {
      min: 200,
      max: 300_000,
    }),
    /** Below this attester balance (wei) readiness says lowBalance and one warning is logged. */
    attesterLowBalanceWei: attesterLowBalanceWeiOf(env),
    /** How often the attester's balance is read (warning, metric) besides the start; 0 = at start only. */
    attesterBalanceCheckMs: envInt(env, 'ATTESTER_BALANCE_CHECK_MS', 60_000, {
      min: 0,
      max: 86_400_000,
    }),
    /**
     * The screening watcher's period: every wallet with an active session is re-checked against
     * the sanctions oracle and the revocation state of what opened its session; 0 = off.
     */
    screeningIntervalMs: envInt(env, 'SCREENING_INTERVAL_MS', 60_000, {
      min: 0,
      max: 24 * 60 * 60 * 1000,
    }),
    /**
     * How often the session revocations still owed (not mined: the attester could not pay, the RPC
     * did not answer) are sent again, by one instance at a time.
     */
    revocationRetryMs: envInt(env, 'REVOCATION_RETRY_MS', 15_000, {
      min: 1_000,
      max: 60 * 60 * 1000,
    }),
    /**
     * Issue 52: activation transactions per wallet in a one-hour window, any path, any account,
     * every replica (counted in the database); 0 = no limit. Repeats of a session that is still
     * open send nothing and do not count.
     */
    activationsPerWalletPerHour: envInt(env, 'ACTIVATIONS_PER_WALLET_PER_HOUR', 10, {
      min: 0,
      max: 10_000,
    }),
    /**
     * Issue 52: how often the service's own index of the accepted attesters' EAS attestations
     * (Attested events) is brought up to the chain's head, and read from the start at boot; 0 =
     * only when an activation or a dry run reads it (each brings it up to date first).
     */
    attestationIndexIntervalMs: envInt(env, 'ATTESTATION_INDEX_INTERVAL_MS', 0, {
      min: 0,
      max: 24 * 60 * 60 * 1000,
    }),
  };
});

export type ComplianceConfig = ConfigType<typeof complianceConfig>;
/** The DI token of this namespace (see configToken). */
export const ComplianceConfig = configToken(complianceConfig);

type Env = Record<string, string | undefined>;

/**
 * The host[:port] users sign in at: every SIWE message names it and a wallet shows it. localhost
 * is right for the demo only, so production must say it (a silent localhost would refuse every
 * message signed for the real domain).
 */
function siweDomainOf(env: Env, production: boolean): string {
  const given = envOptional(env, 'SIWE_DOMAIN');
  if (given === undefined && production)
    return invalidConfig(
      'SIWE_DOMAIN',
      'is required in production mode: the host[:port] users sign in at, e.g. app.example.com',
      undefined,
      'localhost',
    );
  const siweDomain = given ?? 'localhost';
  if (!/^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/.test(siweDomain))
    return invalidConfig(
      'SIWE_DOMAIN',
      'must be an RFC 3986 authority: host[:port]',
      siweDomain,
      'localhost',
    );
  return siweDomain;
}

function issuerPublicKey(env: Env, production: boolean): string | undefined {
  const given = envOptional(env, 'ZK_ISSUER_PUBLIC_KEY');
  if (given === undefined && production)
    return invalidConfig(
      'ZK_ISSUER_PUBLIC_KEY',
      'is required in production mode: the credential issuer\'s "<x>,<y>", from npm run cli -- keys generate',
      undefined,
      undefined,
    );
  // The shape only: whether the point is on Baby Jubjub is ComplianceKeys' check (zk code).
  if (given !== undefined && !/^\d+\s*,\s*\d+$/.test(given))
    return invalidConfig(
      'ZK_ISSUER_PUBLIC_KEY',
      'must be "<x>,<y>": two decimal coordinates',
      given,
      undefined,
    );
  return given;
}

function attesterPrivateKey(
  env: Env,
  production: boolean,
  signer: AttesterSignerKind,
): string | undefined {
  const given = envOptional(env, 'ATTESTER_PRIVATE_KEY');
  if (signer === 'pkcs11') {
    if (given !== undefined)
      return invalidConfig(
        'ATTESTER_PRIVATE_KEY',
        "must be unset with ATTESTER_SIGNER=pkcs11: the attester key is the token's (PKCS11_KEY_LABEL), and a copy in the environment is what the token exists to avoid",
        given,
        undefined,
      );
    return undefined;
  }
  return hexKey(env, 'ATTESTER_PRIVATE_KEY', production);
}

function attesterPkcs11(env: Env, signer: AttesterSignerKind): Pkcs11KeySettings | undefined {
  if (signer !== 'pkcs11') return undefined;
  const label = envOptional(env, 'PKCS11_KEY_LABEL');
  return pkcs11KeySettingsOf(env, { variable: 'PKCS11_KEY_LABEL', label });
}

/** The standby's key or label, in the primary's kind of signer; undefined: no standby. */
function attesterStandby(
  env: Env,
  signer: AttesterSignerKind,
): { privateKey: string } | { pkcs11: Pkcs11KeySettings } | undefined {
  const label = envOptional(env, 'PKCS11_STANDBY_KEY_LABEL');
  const key = envOptional(env, 'ATTESTER_STANDBY_PRIVATE_KEY');
  if (signer === 'pkcs11') {
    if (key !== undefined)
      return invalidConfig(
        'ATTESTER_STANDBY_PRIVATE_KEY',
        'must be unset with ATTESTER_SIGNER=pkcs11: name the standby key with PKCS11_STANDBY_KEY_LABEL',
        key,
        undefined,
      );
    return label === undefined
      ? undefined
      : { pkcs11: pkcs11KeySettingsOf(env, { variable: 'PKCS11_STANDBY_KEY_LABEL', label }) };
  }
  if (label !== undefined)
    return invalidConfig(
      'PKCS11_STANDBY_KEY_LABEL',
      'applies with ATTESTER_SIGNER=pkcs11 only; with a key signer the standby is ATTESTER_STANDBY_PRIVATE_KEY',
      label,
      undefined,
    );
  if (key === undefined) return undefined;
  const privateKey = hexKey(env, 'ATTESTER_STANDBY_PRIVATE_KEY', false);
  return privateKey === undefined ? undefined : { privateKey };
}

function hexKey(env: Env, name: string, production: boolean): string | undefined {
  const given = envOptional(env, name);
  if (given === undefined) {
    if (production)
      return invalidConfig(
        name,
        'is required in production mode: 0x + 64 hex, from npm run cli -- keys generate (or ATTESTER_SIGNER=pkcs11 with the key in a token)',
        undefined,
        undefined,
      );
    return undefined;
  }
  if (!/^0x[0-9a-fA-F]{64}$/.test(given))
    return invalidConfig(name, 'must be 0x followed by 64 hex characters', given, undefined);
  return given;
}

/** ATTESTER_LOW_BALANCE_ETH in wei (also read by `verify-network`, which runs without the app). */
export function attesterLowBalanceWeiOf(env: Env = process.env): bigint {
  return envUnits(env, 'ATTESTER_LOW_BALANCE_ETH', '0.01', 18);
}

/**
 * A decimal amount of a unit with `decimals` places (gwei: 9, ether: 18) as an integer of the
 * smallest unit (wei). Read as text: a float would round a fee cap or a balance threshold.
 */
function envUnits(env: Env, name: string, fallback: string, decimals: number): bigint {
  const text = envOptional(env, name) ?? fallback;
  const match = new RegExp(`^(\\d{1,30})(?:\\.(\\d{1,${decimals}}))?$`).exec(text);
  if (!match)
    return invalidConfig(
      name,
      `must be a decimal number with at most ${decimals} decimals, e.g. ${fallback}`,
      text,
      unitsOf(fallback, decimals),
    );
  return unitsOf(text, decimals);
}

function unitsOf(text: string, decimals: number): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}
