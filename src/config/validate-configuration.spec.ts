import { join } from 'node:path';
import { InvalidConfigurationError, validateConfiguration } from '.';
import { withOnlyEnv } from '../../test/helpers/test-env';

function failureOf(vars: Record<string, string>): InvalidConfigurationError {
  try {
    withOnlyEnv(vars, validateConfiguration);
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error;
    throw error;
  }
  throw new Error('validateConfiguration did not fail');
}

describe(validateConfiguration.name, () => {
  it('passes on the demo defaults', () => {
    expect(() => withOnlyEnv({}, validateConfiguration)).not.toThrow();
  });

  it('lists every missing production setting in one failure, one line per variable', () => {
    const error = failureOf({ APP_MODE: 'production' });
    expect(error.problems.map((problem) => problem.variable)).toEqual([
      'JWT_SECRET',
      'SIWE_DOMAIN',
      'ZK_ISSUER_PUBLIC_KEY',
      'ATTESTER_PRIVATE_KEY',
      'CHAIN_RPC_URL',
      'COMPLIANCE_REGISTRY_ADDRESS',
      'COMPLIANCE_HOOK_ADDRESS',
      'TUSDC_ADDRESS',
      'MFA_ENCRYPTION_KEY',
      'WEBHOOK_SECRETS_KEY',
      'RECEIPT_SIGNING_KEY',
    ]);
    const lines = error.message.split('\n');
    expect(lines).toEqual([
      'Invalid configuration, 11 settings to fix:',
      expect.stringMatching(
        /^ {2}JWT_SECRET is required in production mode: .+ \(it is not set\)$/,
      ),
      expect.stringMatching(/^ {2}SIWE_DOMAIN is required in production mode: /),
      expect.stringMatching(/^ {2}ZK_ISSUER_PUBLIC_KEY is required in production mode: /),
      expect.stringMatching(/^ {2}ATTESTER_PRIVATE_KEY is required in production mode: /),
      expect.stringMatching(/^ {2}CHAIN_RPC_URL is required when CHAIN_NETWORK=base-sepolia/),
      expect.stringMatching(/^ {2}COMPLIANCE_REGISTRY_ADDRESS is required with CHAIN_NETWORK=/),
      expect.stringMatching(/^ {2}COMPLIANCE_HOOK_ADDRESS is required with CHAIN_NETWORK=/),
      expect.stringMatching(/^ {2}TUSDC_ADDRESS is required with CHAIN_NETWORK=/),
      expect.stringMatching(/^ {2}MFA_ENCRYPTION_KEY is required in production mode: /),
      expect.stringMatching(/^ {2}WEBHOOK_SECRETS_KEY is required in production mode: /),
      expect.stringMatching(/^ {2}RECEIPT_SIGNING_KEY is required in production mode: /),
      'Every production setting is described in .env.production.example',
    ]);
  });

  it('on a network file, asks for the RPC and the keys only (the file names our contracts)', () => {
    const error = failureOf({
      APP_MODE: 'production',
      CHAIN_NETWORK_FILE: join(__dirname, 'networks', 'devnet.json'),
    });
    expect(error.problems.map((problem) => problem.variable)).toEqual([
      'JWT_SECRET',
      'SIWE_DOMAIN',
      'ZK_ISSUER_PUBLIC_KEY',
      'ATTESTER_PRIVATE_KEY',
      'CHAIN_RPC_URL',
      'MFA_ENCRYPTION_KEY',
      'WEBHOOK_SECRETS_KEY',
      'RECEIPT_SIGNING_KEY',
    ]);
  });

  it('collects bad values across namespaces and within one, once per variable, secrets redacted', () => {
    const error = failureOf({
      APP_MODE: 'staging',
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      CORS_ORIGINS: 'https://a.example.com/, https://b.example.com',
      TRUST_PROXY: 'everyone',
      HTTP_REQUEST_TIMEOUT_MS: '5000',
      HTTP_HEADERS_TIMEOUT_MS: '6000',
      DATABASE_URL: 'mysql://app:hunter2@db.internal/cgk',
      DATABASE_SCHEMA: 'Public',
      JWT_SECRET: 'hunter2',
      REDIS_KEY_PREFIX: 'cgk prefix',
      API_KEY_PREFIX: 'CGK',
      SIWE_DOMAIN: 'https://app.example.com',
      ATTESTER_PRIVATE_KEY: '0xhunter2',
      SESSION_TTL_SECONDS: '1',
    });
    // APP_MODE is read by several namespaces: reported once. Unknown, it counts as demo.
    expect(error.problems.map((problem) => problem.variable)).toEqual([
      'APP_MODE',
      'PORT',
      'LOG_LEVEL',
      'CORS_ORIGINS',
      'TRUST_PROXY',
      'HTTP_HEADERS_TIMEOUT_MS',
      'DATABASE_URL',
      'DATABASE_SCHEMA',
      'API_KEY_PREFIX',
      'JWT_SECRET',
      'REDIS_KEY_PREFIX',
      'SIWE_DOMAIN',
      'ATTESTER_PRIVATE_KEY',
      'SESSION_TTL_SECONDS',
    ]);
    expect(error.message).toContain(
      '\n  PORT must be an integer between 0 and 65535 (got "eighty")\n',
    );
    expect(error.message).toContain(
      '\n  DATABASE_URL must use one of the protocols postgres, postgresql (got "mysql://<redacted>@db.internal/…")\n',
    );
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('.env.production.example');
  });

  it('keeps the one-line message for a single problem', () => {
    expect(failureOf({ PORT: '70000' }).message).toBe(
      'Invalid configuration: PORT must be an integer between 0 and 65535 (got "70000")',
    );
  });
});
