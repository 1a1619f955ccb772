import { Wallet } from 'ethers';
import { DEVNET_MNEMONIC } from '../../chain/devnet/constants';
import type { SignerSource } from '../../chain/signers/open-signer';
import type { ComplianceConfig } from '../../config/compliance.config';

/** Where the attesters' keys are: the primary's, and the standby's when one is configured. */
export interface AttesterKeySources {
  primary: SignerSource;
  standby?: SignerSource;
}

/**
 * The configured attester keys (ATTESTER_PRIVATE_KEY, or the PKCS#11 token's with
 * ATTESTER_SIGNER=pkcs11, and the standby's); with none, devnet account 0 (the deployer and the
 * devnet's attester, design §4). Light on purpose: the CLI's `attester address` loads only this.
 */
export function attesterKeySources(config: ComplianceConfig): AttesterKeySources {
  const primary: SignerSource = config.attesterPkcs11
    ? { pkcs11: config.attesterPkcs11 }
    : { privateKey: config.attesterPrivateKey ?? Wallet.fromPhrase(DEVNET_MNEMONIC).privateKey };
  return config.attesterStandby ? { primary, standby: config.attesterStandby } : { primary };
}
