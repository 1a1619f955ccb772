import { Provider } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { complianceConfig, ComplianceConfig } from '../config/compliance.config';
import { InvalidConfigError, invalidConfig } from '../config/env-reader';
import { attesterKeySources, type AttesterKeySources } from './sessions/attester-key-sources';
import {
  configuredIssuerPublicKey,
  loadComplianceVerificationKey,
  ZK_ARTIFACTS,
  type Groth16VerificationKey,
  type IssuerPublicKey,
} from './zk';

/**
 * The compliance module's key material, loaded once from what the configuration names: the
 * Groth16 verification key (file), the credential issuer's public key, where the attester keys
 * are (ATTESTER_PRIVATE_KEY, devnet account 0 by default on the test network, or a PKCS#11
 * token), and the verifier pool size. A bad value fails the boot with the variable's name.
 */
export class ComplianceKeys {
  constructor(
    readonly verificationKey: Groth16VerificationKey,
    readonly issuerPublicKey: IssuerPublicKey,
    readonly attesterKeys: AttesterKeySources,
    readonly zkVerifyThreads: number,
  ) {}

  static load(config: ComplianceConfig): ComplianceKeys {
    return new ComplianceKeys(
      named('ZK_VERIFICATION_KEY_PATH', config.verificationKeyPath, loadComplianceVerificationKey),
      named('ZK_ISSUER_PUBLIC_KEY', config.issuerPublicKey, configuredIssuerPublicKey),
      attesterKeySources(config),
      config.zkVerifyThreads ?? Math.min(4, Math.max(1, availableParallelism() - 1)),
    );
  }
}

function named<T, V>(variable: string, value: V, load: (value: V) => T): T {
  try {
    return load(value);
  } catch (error) {
    throw new InvalidConfigError(variable, (error as Error).message, value as string);
  }
}

/** True when `vk` is the repository's own (test) setup: its delta is that key's. */
export function isRepositoryTestSetup(vk: Groth16VerificationKey): boolean {
  const committed = loadComplianceVerificationKey(ZK_ARTIFACTS.verificationKey);
  return JSON.stringify(vk.vk_delta_2) === JSON.stringify(committed.vk_delta_2);
}

/**
 * Start-up check (validateConfiguration): production refuses the repository's test trusted setup,
 * whose single contributor could have kept the toxic waste and forge proofs, unless
 * ZK_TEST_SETUP_ALLOWED=true says this is a test network. A key that does not load is left to
 * ComplianceKeys, which names ZK_VERIFICATION_KEY_PATH.
 */
export function checkTrustedSetup(): void {
  const config = complianceConfig();
  if (!config.production || config.zkTestSetupAllowed) return;
  let vk: Groth16VerificationKey;
  try {
    vk = loadComplianceVerificationKey(config.verificationKeyPath);
  } catch {
    return;
  }
  if (isRepositoryTestSetup(vk))
    invalidConfig(
      'ZK_TEST_SETUP_ALLOWED',
      `must be true to start in production with the repository's test trusted setup (${config.verificationKeyPath}: one local contributor, who could forge proofs). Run a ceremony (npm run cli -- zk ceremony, docs/operators/compliance-operations.md) and point ZK_VERIFICATION_KEY_PATH at its key, or set ZK_TEST_SETUP_ALLOWED=true on a test network`,
      process.env.ZK_TEST_SETUP_ALLOWED,
      undefined,
    );
}

export const complianceKeysProvider: Provider = {
  provide: ComplianceKeys,
  useFactory: (config: ComplianceConfig) => ComplianceKeys.load(config),
  inject: [complianceConfig.KEY],
};
