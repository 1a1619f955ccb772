import { Wallet } from 'ethers';
import { complianceConfig } from '../config/compliance.config';
import { ComplianceKeys } from './compliance-keys';
import { DEVNET_ISSUER_PUBLIC_KEY, formatIssuerPublicKey, PUBLIC_SIGNAL_COUNT } from './zk';

const VARS = [
  'APP_MODE',
  'ZK_VERIFICATION_KEY_PATH',
  'ZK_ISSUER_PUBLIC_KEY',
  'ATTESTER_PRIVATE_KEY',
  'ZK_VERIFY_THREADS',
];

function load(vars: Record<string, string> = {}): ComplianceKeys {
  const saved = { ...process.env };
  for (const k of VARS) delete process.env[k];
  Object.assign(process.env, vars);
  try {
    return ComplianceKeys.load(complianceConfig());
  } finally {
    process.env = saved;
  }
}

describe(ComplianceKeys.name, () => {
  it('loads the public test-network key material in demo mode', () => {
    const keys = load();
    expect(keys.issuerPublicKey).toEqual(DEVNET_ISSUER_PUBLIC_KEY);
    const { primary } = keys.attesterKeys;
    expect('privateKey' in primary && new Wallet(primary.privateKey).address).toBe(
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    );
    expect(keys.verificationKey.nPublic).toBe(PUBLIC_SIGNAL_COUNT);
    expect(keys.zkVerifyThreads).toBeGreaterThanOrEqual(1);
    expect(load({ ZK_VERIFY_THREADS: '0' }).zkVerifyThreads).toBe(0);
  });

  it('takes the configured issuer and attester keys', () => {
    const attester = Wallet.createRandom().privateKey;
    const keys = load({
      ZK_ISSUER_PUBLIC_KEY: formatIssuerPublicKey(DEVNET_ISSUER_PUBLIC_KEY),
      ATTESTER_PRIVATE_KEY: attester,
    });
    expect(keys.attesterKeys).toEqual({ primary: { privateKey: attester } });
    expect(keys.issuerPublicKey).toEqual(DEVNET_ISSUER_PUBLIC_KEY);
  });

  it.each([
    ['ZK_ISSUER_PUBLIC_KEY', '1,2', /ZK_ISSUER_PUBLIC_KEY .*Baby Jubjub/],
    ['ZK_VERIFICATION_KEY_PATH', '/nonexistent/vk.json', /ZK_VERIFICATION_KEY_PATH cannot read/],
  ])('fails the boot naming %s for a bad value', (name, value, message) => {
    expect(() => load({ [name]: value })).toThrow(message);
  });
});
