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
  'ATTESTER_SIGNER',
  'ATTESTER_STANDBY_PRIVATE_KEY',
  'PKCS11_MODULE',
  'PKCS11_TOKEN_LABEL',
  'PKCS11_PIN',
  'PKCS11_KEY_LABEL',
  'PKCS11_STANDBY_KEY_LABEL',
  'REVOCATION_RETRY_MS',
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

  describe('the attester signer (issue 58)', () => {
    const PKCS11 = {
      ATTESTER_SIGNER: 'pkcs11',
      PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so',
      PKCS11_TOKEN_LABEL: 'cgk',
      PKCS11_PIN: '1234',
      PKCS11_KEY_LABEL: 'attester',
    };
    const production = {
      APP_MODE: 'production',
      SIWE_DOMAIN: 'a.example.com',
      ZK_ISSUER_PUBLIC_KEY: ISSUER,
    };

    it('has no standby and no token by default; retries owed revocations every 15 s', () => {
      const config = withEnv({}, () => complianceConfig());
      expect(config).toMatchObject({ attesterSigner: 'key', revocationRetryMs: 15_000 });
      expect(config.attesterPkcs11).toBeUndefined();
      expect(config.attesterStandby).toBeUndefined();
    });

    it('with pkcs11: reads the token settings and needs no ATTESTER_PRIVATE_KEY, even in production', () => {
      const config = withEnv({ ...production, ...PKCS11 }, () => complianceConfig());
      expect(config.attesterPkcs11).toEqual({
        module: '/usr/lib/softhsm/libsofthsm2.so',
        tokenLabel: 'cgk',
        pin: '1234',
        keyLabel: 'attester',
      });
      expect(config.attesterPrivateKey).toBeUndefined();
      const standby = withEnv({ ...PKCS11, PKCS11_STANDBY_KEY_LABEL: 'standby' }, () =>
        complianceConfig(),
      );
      expect(standby.attesterStandby).toEqual({
        pkcs11: { ...standby.attesterPkcs11, keyLabel: 'standby' },
      });
    });

    it('names every missing PKCS#11 setting, and refuses a key in the environment beside the token', () => {
      const problems = withEnv({ ATTESTER_SIGNER: 'pkcs11' }, () =>
        collectConfigErrors(complianceConfig),
      );
      expect(problems.map((p) => p.variable)).toEqual([
        'PKCS11_MODULE',
        'PKCS11_TOKEN_LABEL',
        'PKCS11_PIN',
        'PKCS11_KEY_LABEL',
      ]);
      expect(() =>
        withEnv({ ...PKCS11, ATTESTER_PRIVATE_KEY: '0x' + '12'.repeat(32) }, () =>
          complianceConfig(),
        ),
      ).toThrow(/ATTESTER_PRIVATE_KEY must be unset with ATTESTER_SIGNER=pkcs11/);
      expect(() =>
        withEnv({ ...PKCS11, ATTESTER_STANDBY_PRIVATE_KEY: '0x' + '12'.repeat(32) }, () =>
          complianceConfig(),
        ),
      ).toThrow(/ATTESTER_STANDBY_PRIVATE_KEY must be unset with ATTESTER_SIGNER=pkcs11/);
      expect(() =>
        withEnv({ PKCS11_STANDBY_KEY_LABEL: 'standby' }, () => complianceConfig()),
      ).toThrow(/PKCS11_STANDBY_KEY_LABEL applies with ATTESTER_SIGNER=pkcs11 only/);
    });

    it('takes a standby key beside the primary key, checked like it', () => {
      const key = '0x' + '34'.repeat(32);
      expect(
        withEnv({ ATTESTER_STANDBY_PRIVATE_KEY: key }, () => complianceConfig()).attesterStandby,
      ).toEqual({ privateKey: key });
      expect(() =>
        withEnv({ ATTESTER_STANDBY_PRIVATE_KEY: '0x12' }, () => complianceConfig()),
      ).toThrow(/ATTESTER_STANDBY_PRIVATE_KEY must be 0x followed by 64 hex/);
    });

    it('never echoes the PIN in an error', () => {
      expect(() =>
        withEnv({ ...PKCS11, ATTESTER_SIGNER: 'hsm' }, () => complianceConfig()),
      ).toThrow(/ATTESTER_SIGNER must be one of key, pkcs11/);
      const problems = withEnv(
        { ...PKCS11, PKCS11_PIN: '9876', ATTESTER_PRIVATE_KEY: '0x' + '12'.repeat(32) },
        () => collectConfigErrors(complianceConfig),
      );
      expect(JSON.stringify(problems.map((p) => p.message))).not.toMatch(/9876|1212/);
    });
  });
});
