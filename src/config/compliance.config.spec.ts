import { Wallet } from 'ethers';
import { DEVNET_ISSUER_PUBLIC_KEY, formatIssuerPublicKey } from '../compliance/zk';
import { complianceConfig } from './compliance.config';

const VARS = [
  'APP_MODE',
  'SIWE_DOMAIN',
  'SIWE_URI',
  'ZK_VERIFICATION_KEY_PATH',
  'ZK_ISSUER_PUBLIC_KEY',
  'ATTESTER_PRIVATE_KEY',
  'SESSION_TTL_SECONDS',
];

function withEnv<T>(vars: Record<string, string | undefined>, run: () => T): T {
  const saved = { ...process.env };
  for (const k of VARS) delete process.env[k];
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) process.env[k] = v;
  try {
    return run();
  } finally {
    process.env = saved;
  }
}

describe('complianceConfig', () => {
  it('defaults to the public test-network values in demo mode', () => {
    const config = withEnv({}, () => complianceConfig());
    expect(config.siweDomain).toBe('localhost');
    expect(config.siweChainId).toBe(84532);
    expect(config.issuerPublicKey).toEqual(DEVNET_ISSUER_PUBLIC_KEY);
    expect(new Wallet(config.attesterPrivateKey).address).toBe(
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    );
    expect(config.sessionTtlSeconds).toBe(86_400);
    expect(config.verificationKey.nPublic).toBe(4);
  });

  it('requires the issuer key and the attester key in production', () => {
    expect(() => withEnv({ APP_MODE: 'production' }, () => complianceConfig())).toThrow(
      /ZK_ISSUER_PUBLIC_KEY is required/,
    );
    const issuer = formatIssuerPublicKey(DEVNET_ISSUER_PUBLIC_KEY);
    expect(() =>
      withEnv({ APP_MODE: 'production', ZK_ISSUER_PUBLIC_KEY: issuer }, () => complianceConfig()),
    ).toThrow(/ATTESTER_PRIVATE_KEY is required/);
  });

  it.each([
    ['ZK_ISSUER_PUBLIC_KEY', '1,2', /ZK_ISSUER_PUBLIC_KEY .*Baby Jubjub/],
    ['ZK_VERIFICATION_KEY_PATH', '/nonexistent/vk.json', /ZK_VERIFICATION_KEY_PATH cannot read/],
    ['ATTESTER_PRIVATE_KEY', '0x1234', /ATTESTER_PRIVATE_KEY must be 0x followed by 64 hex/],
    ['SESSION_TTL_SECONDS', '5', /SESSION_TTL_SECONDS must be an integer between 60/],
    ['SIWE_DOMAIN', 'https://x', /SIWE_DOMAIN must be an RFC 3986 authority/],
  ])('fails the boot naming %s for a bad value', (name, value, message) => {
    expect(() => withEnv({ [name]: value }, () => complianceConfig())).toThrow(message);
  });

  it('never echoes the attester key in the error', () => {
    const secretish = '0x' + 'ab'.repeat(31);
    expect(() => withEnv({ ATTESTER_PRIVATE_KEY: secretish }, () => complianceConfig())).toThrow(
      /<redacted>/,
    );
  });
});
