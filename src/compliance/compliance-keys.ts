import { Provider } from '@nestjs/common';
import { Wallet } from 'ethers';
import { availableParallelism } from 'node:os';
import { DEVNET_MNEMONIC } from '../chain/devnet/constants';
import { complianceConfig, ComplianceConfig } from '../config/compliance.config';
import { InvalidConfigError } from '../config/env-reader';
import {
  configuredIssuerPublicKey,
  loadComplianceVerificationKey,
  type Groth16VerificationKey,
  type IssuerPublicKey,
} from './zk';

/**
 * The compliance module's key material, loaded once from what the configuration names: the
 * Groth16 verification key (file), the credential issuer's public key, the attester's private key
 * (devnet account 0 by default on the test network), and the verifier pool size. A bad value
 * fails the boot with the variable's name.
 */
export class ComplianceKeys {
  constructor(
    readonly verificationKey: Groth16VerificationKey,
    readonly issuerPublicKey: IssuerPublicKey,
    readonly attesterPrivateKey: string,
    readonly zkVerifyThreads: number,
  ) {}

  static load(config: ComplianceConfig): ComplianceKeys {
    return new ComplianceKeys(
      named('ZK_VERIFICATION_KEY_PATH', config.verificationKeyPath, loadComplianceVerificationKey),
      named('ZK_ISSUER_PUBLIC_KEY', config.issuerPublicKey, configuredIssuerPublicKey),
      // Devnet account 0: the deployer and the registry's attester (design §4).
      config.attesterPrivateKey ?? Wallet.fromPhrase(DEVNET_MNEMONIC).privateKey,
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

export const complianceKeysProvider: Provider = {
  provide: ComplianceKeys,
  useFactory: (config: ComplianceConfig) => ComplianceKeys.load(config),
  inject: [complianceConfig.KEY],
};
