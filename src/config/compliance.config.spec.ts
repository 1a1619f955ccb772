import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { complianceConfig } from './compliance.config';
import { collectConfigErrors } from './env-reader';

const VARS = [
  'APP_MODE',
  'SIWE_DOMAIN',
  'SIWE_URI',
  'ZK_VERIFICATION_KEY_PATH',
  'ZK_ISSUER_PUBLIC_KEY',
  'ATTESTER_PRIVATE_KEY',
  'SESSION_TTL_SECONDS',
  'ZK_VERIFY_THREADS',
  'ATTESTER_MAX_FEE_GWEI',
  'ATTESTER_REPLACE_AFTER_MS',
  'ATTESTER_LOW_BALANCE_ETH',
];

/** Any syntactically valid issuer key: config does not parse it (ComplianceKeys does). */
const ISSUER = '1,2';

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
  it('defaults to the test-network values in demo mode (keys resolved by ComplianceKeys)', () => {
    const config = withEnv({}, () => complianceConfig());
    expect(config.siweDomain).toBe('localhost');
    expect(config.siweChainId).toBe(84532);
    expect(config.issuerPublicKey).toBeUndefined();
    expect(config.attesterPrivateKey).toBeUndefined();
    expect(config.zkVerifyThreads).toBeUndefined();
    expect(config.sessionTtlSeconds).toBe(86_400);
    expect(config.verificationKeyPath).toBe('circuits/build/verification_key.json');
    expect(config.verifyChallengeTtlSeconds).toBe(600);
    expect(config.proofClockSkewSeconds).toBe(300);
    expect(config.attesterMaxFeeWei).toBe(50_000_000_000n);
    expect(config.attesterReplaceAfterMs).toBe(12_000);
    expect(config.attesterLowBalanceWei).toBe(10_000_000_000_000_000n);
  });

  it('reads the fee cap and the balance threshold as exact decimals of gwei and ether', () => {
    const config = withEnv({ ATTESTER_MAX_FEE_GWEI: '0.05', ATTESTER_LOW_BALANCE_ETH: '2' }, () =>
      complianceConfig(),
    );
    expect(config.attesterMaxFeeWei).toBe(50_000_000n);
    expect(config.attesterLowBalanceWei).toBe(2_000_000_000_000_000_000n);
  });

  it('reads the environment only: it imports nothing outside src/config (no zk, no chain)', () => {
    const source = readFileSync(join(__dirname, 'compliance.config.ts'), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(
      imports.filter((path) => !path.startsWith('./') && !path.startsWith('@nestjs/')),
    ).toEqual([]);
  });

  it('requires the SIWE domain, the issuer key and the attester key in production', () => {
    const production = { APP_MODE: 'production', SIWE_DOMAIN: 'app.example.com' };
    expect(() => withEnv({ APP_MODE: 'production' }, () => complianceConfig())).toThrow(
      /SIWE_DOMAIN is required in production mode/,
    );
    expect(() => withEnv(production, () => complianceConfig())).toThrow(
      /ZK_ISSUER_PUBLIC_KEY is required/,
    );
    expect(() =>
      withEnv({ ...production, ZK_ISSUER_PUBLIC_KEY: ISSUER }, () => complianceConfig()),
    ).toThrow(/ATTESTER_PRIVATE_KEY is required/);
    const config = withEnv(
      { ...production, ZK_ISSUER_PUBLIC_KEY: ISSUER, ATTESTER_PRIVATE_KEY: '0x' + '12'.repeat(32) },
      () => complianceConfig(),
    );
    expect(config).toMatchObject({
      production: true,
      siweDomain: 'app.example.com',
      siweUri: 'https://app.example.com',
    });
  });

  it('reports every missing production setting when collected (validateConfiguration)', () => {
    const problems = withEnv({ APP_MODE: 'production' }, () =>
      collectConfigErrors(complianceConfig),
    );
    expect(problems.map((problem) => problem.variable)).toEqual([
      'SIWE_DOMAIN',
      'ZK_ISSUER_PUBLIC_KEY',
      'ATTESTER_PRIVATE_KEY',
    ]);
  });

  it.each([
    ['ZK_VERIFY_THREADS', '99', /ZK_VERIFY_THREADS must be an integer between 0/],
    ['ATTESTER_PRIVATE_KEY', '0x1234', /ATTESTER_PRIVATE_KEY must be 0x followed by 64 hex/],
    ['SESSION_TTL_SECONDS', '5', /SESSION_TTL_SECONDS must be an integer between 60/],
    ['SIWE_DOMAIN', 'https://x', /SIWE_DOMAIN must be an RFC 3986 authority/],
    ['ATTESTER_MAX_FEE_GWEI', '1e3', /ATTESTER_MAX_FEE_GWEI must be a decimal number/],
    ['ATTESTER_MAX_FEE_GWEI', '0.0000000001', /at most 9 decimals/],
    ['ATTESTER_LOW_BALANCE_ETH', '-1', /ATTESTER_LOW_BALANCE_ETH must be a decimal number/],
    ['ATTESTER_REPLACE_AFTER_MS', '10', /ATTESTER_REPLACE_AFTER_MS must be an integer between 200/],
    ['ZK_ISSUER_PUBLIC_KEY', '<x>,<y>', /ZK_ISSUER_PUBLIC_KEY must be "<x>,<y>"/],
    ['ZK_ISSUER_PUBLIC_KEY', '0x1,0x2', /ZK_ISSUER_PUBLIC_KEY must be "<x>,<y>"/],
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
