import { InvalidConfigError } from './env-reader';
import { webhooksConfig } from './webhooks.config';

function withEnv<T>(vars: Record<string, string | undefined>, run: () => T): T {
  const saved = { ...process.env };
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return run();
  } finally {
    process.env = saved;
  }
}

const base = {
  WEBHOOK_TIMEOUT_MS: undefined,
  WEBHOOK_DNS_TIMEOUT_MS: undefined,
  WEBHOOK_LEASE_MS: undefined,
};

describe('webhooksConfig', () => {
  it('defaults: 5 s send timeout, 2 s DNS timeout, 60 s lease', () => {
    expect(withEnv(base, () => webhooksConfig())).toMatchObject({
      timeoutMs: 5_000,
      dnsTimeoutMs: 2_000,
      leaseMs: 60_000,
    });
  });

  it('refuses a lease not longer than the DNS and send timeouts together, naming WEBHOOK_LEASE_MS', () => {
    const env = { ...base, WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_DNS_TIMEOUT_MS: '2000' };
    let thrown: unknown;
    try {
      withEnv({ ...env, WEBHOOK_LEASE_MS: '7000' }, () => webhooksConfig());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidConfigError);
    expect(String((thrown as Error).message)).toContain('WEBHOOK_LEASE_MS');
    expect(String((thrown as Error).message)).toContain('WEBHOOK_DNS_TIMEOUT_MS');
    expect(withEnv({ ...env, WEBHOOK_LEASE_MS: '7001' }, () => webhooksConfig()).leaseMs).toBe(
      7_001,
    );
  });
});
