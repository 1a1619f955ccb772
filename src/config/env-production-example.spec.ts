import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidConfigurationError, validateConfiguration } from '.';
import { withOnlyEnv } from '../../test/helpers/test-env';
import { generateEs256Key } from './es256-key';

const ROOT = join(__dirname, '..', '..');
const EXAMPLE = readFileSync(join(ROOT, '.env.production.example'), 'utf8');

/** `NAME=value` lines: uncommented ones are required, `# NAME=default` ones optional. */
const SETTINGS = EXAMPLE.split('\n').flatMap((line) => {
  const match = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  return match ? [{ name: match[2], value: match[3], required: match[1] === undefined }] : [];
});

/** A valid value for each `<placeholder>` an operator must replace. */
const FILLED: Record<string, string> = {
  JWT_SECRET: 'q'.repeat(48),
  MFA_ENCRYPTION_KEY: 'm'.repeat(48),
  WEBHOOK_SECRETS_KEY: 'w'.repeat(48),
  SIWE_DOMAIN: 'app.example.com',
  ZK_ISSUER_PUBLIC_KEY:
    '4658821707763369642962496220899601566415381978603315355108512783816817304920,14320331470559115920510823874129921797036944214367420761346230622331451152939',
  ATTESTER_PRIVATE_KEY: `0x${'12'.repeat(32)}`,
  CHAIN_RPC_URL: 'https://base-sepolia.example.com/v2/key',
  // A complete network file (our contracts deployed); whether it matches the chain is checked at start.
  CHAIN_NETWORK_FILE: join(__dirname, 'networks', 'devnet.json'),
  RECEIPT_SIGNING_KEY: JSON.stringify(generateEs256Key().privateJwk),
};

/** Optional settings that replace a required one rather than add to it: never set together. */
const ALTERNATIVES: Record<string, string> = { CHAIN_NETWORK: 'CHAIN_NETWORK_FILE' };

/** Every variable name src/config reads: through the env readers, `env.NAME`, or named in an error. */
function variablesReadByConfig(): Set<string> {
  const dir = __dirname;
  const names = new Set<string>();
  const patterns = [
    /\benv[A-Z]\w*(?:<[^>]*>)?\(\s*\w+\s*,\s*'([A-Z][A-Z0-9_]*)'/g,
    /\benv\.([A-Z][A-Z0-9_]*)\b/g,
    /\benv\[\s*'([A-Z][A-Z0-9_]*)'\s*\]/g,
    /\b(?:invalidConfig|InvalidConfigError)\(\s*'([A-Z][A-Z0-9_]*)'/g,
  ];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
    const source = readFileSync(join(dir, file), 'utf8');
    for (const pattern of patterns) for (const m of source.matchAll(pattern)) names.add(m[1]);
  }
  return names;
}

describe('.env.production.example', () => {
  const documented = SETTINGS.map((setting) => setting.name);

  it('documents every variable the configuration reads, once, each with a comment above it', () => {
    const read = variablesReadByConfig();
    // The scan sees each way a variable is read: a reader, a multi-line generic reader, env.NAME.
    expect(read.size).toBeGreaterThan(50);
    expect([...read]).toEqual(
      expect.arrayContaining(['SIWE_DOMAIN', 'CHAIN_NETWORK', 'CHAIN_NETWORK_FILE', 'NODE_ENV']),
    );
    expect([...read].filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
    expect(documented.filter((name) => !read.has(name))).toEqual([]);
    // Each setting has its own comment, or shares the one right above its group of settings.
    let comment = '';
    for (const line of EXAMPLE.split('\n')) {
      const setting = /^(?:# )?([A-Z][A-Z0-9_]*)=/.exec(line);
      if (!setting) comment = line;
      else
        expect({ name: setting[1], comment }).toEqual({
          name: setting[1],
          comment: expect.stringMatching(/^# \S/),
        });
    }
  });

  it('requires APP_MODE=production and a <placeholder> for every other required setting', () => {
    const required = SETTINGS.filter((setting) => setting.required);
    expect(required.find((setting) => setting.name === 'APP_MODE')?.value).toBe('production');
    const placeholders = required.filter((setting) => /^<.*>/.test(setting.value));
    expect(placeholders.map((setting) => setting.name).sort()).toEqual(Object.keys(FILLED).sort());
    expect(required.length).toBe(placeholders.length + 1);
  });

  it('starts clean once the placeholders are replaced, with or without every optional default', () => {
    const required = Object.fromEntries(
      SETTINGS.filter((s) => s.required).map((s) => [s.name, FILLED[s.name] ?? s.value]),
    );
    expect(() => withOnlyEnv(required, validateConfiguration)).not.toThrow();
    const optional = SETTINGS.filter((s) => !s.required && !(s.name in ALTERNATIVES));
    const everything = {
      ...Object.fromEntries(optional.map((s) => [s.name, s.value])),
      ...required,
    };
    expect(() => withOnlyEnv(everything, validateConfiguration)).not.toThrow();
    // An alternative instead of the setting it replaces.
    for (const [alternative, replaced] of Object.entries(ALTERNATIVES)) {
      const instead: Record<string, string> = {
        ...everything,
        [alternative]: SETTINGS.find((s) => s.name === alternative)!.value,
        COMPLIANCE_REGISTRY_ADDRESS: '0x1000000000000000000000000000000000000001',
        COMPLIANCE_HOOK_ADDRESS: '0x2000000000000000000000000000000000000002',
        TUSDC_ADDRESS: '0x3000000000000000000000000000000000000003',
      };
      delete instead[replaced];
      expect(() => withOnlyEnv(instead, validateConfiguration)).not.toThrow();
    }
  });

  it('refuses to start with a placeholder left in, naming each one', () => {
    const verbatim = Object.fromEntries(
      SETTINGS.filter((s) => s.required).map((s) => [s.name, s.value]),
    );
    let failure: unknown;
    try {
      withOnlyEnv(verbatim, validateConfiguration);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(InvalidConfigurationError);
    const named = (failure as InvalidConfigurationError).problems.map((p) => p.variable);
    // The chain namespace stops at its first problem: CHAIN_RPC_URL before CHAIN_NETWORK_FILE.
    expect(named).toEqual(
      expect.arrayContaining([
        'JWT_SECRET',
        'SIWE_DOMAIN',
        'ZK_ISSUER_PUBLIC_KEY',
        'ATTESTER_PRIVATE_KEY',
        'CHAIN_RPC_URL',
      ]),
    );
  });
});
