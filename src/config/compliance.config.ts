import { ConfigType, registerAs } from '@nestjs/config';
import { Wallet } from 'ethers';
import { DEVNET_MNEMONIC } from '../chain/devnet/constants';
import {
  DEVNET_ISSUER_PUBLIC_KEY,
  loadComplianceVerificationKey,
  parseIssuerPublicKey,
  ZK_ARTIFACTS,
  type IssuerPublicKey,
} from '../compliance/zk';
import { APP_MODES } from './app.config';
import { envEnum, envInt, envOptional, envString, InvalidConfigError } from './env-reader';

/** ERC-4361 nonces from GET /onboarding/nonce live this long (the SIWE message's max age too). */
export const SIWE_NONCE_TTL_SECONDS = 600;
/** Chain every SIWE message must name (spec §1: the test network, Base Sepolia). */
export const SIWE_CHAIN_ID = 84532;

/**
 * Onboarding and compliance sessions: SIWE domain, ZK verifier inputs, and the attester that opens
 * sessions on the ComplianceRegistry. Test-network defaults are public on purpose (devnet account
 * 0, devnet credential issuer); production must configure its own and fails at boot otherwise.
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
    verificationKey: loadVerificationKey(
      envString(env, 'ZK_VERIFICATION_KEY_PATH', ZK_ARTIFACTS.verificationKey),
    ),
    issuerPublicKey: issuerPublicKey(env, production),
    attesterPrivateKey: attesterPrivateKey(env, production),
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
): IssuerPublicKey {
  const given = envOptional(env, 'ZK_ISSUER_PUBLIC_KEY');
  if (given === undefined) {
    if (production)
      throw new InvalidConfigError(
        'ZK_ISSUER_PUBLIC_KEY',
        'is required in production mode ("<x>,<y>")',
        undefined,
      );
    return DEVNET_ISSUER_PUBLIC_KEY;
  }
  try {
    return parseIssuerPublicKey(given);
  } catch (error) {
    throw new InvalidConfigError('ZK_ISSUER_PUBLIC_KEY', (error as Error).message, given);
  }
}

function attesterPrivateKey(env: Record<string, string | undefined>, production: boolean): string {
  const given = envOptional(env, 'ATTESTER_PRIVATE_KEY');
  if (given === undefined) {
    if (production)
      throw new InvalidConfigError(
        'ATTESTER_PRIVATE_KEY',
        'is required in production mode',
        undefined,
      );
    // Devnet account 0: the deployer and the registry's attester (design §4).
    return Wallet.fromPhrase(DEVNET_MNEMONIC).privateKey;
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

/** A bad or missing verification key fails the boot with the variable's name, not the first proof. */
function loadVerificationKey(path: string) {
  try {
    return loadComplianceVerificationKey(path);
  } catch (error) {
    throw new InvalidConfigError('ZK_VERIFICATION_KEY_PATH', (error as Error).message, path);
  }
}
