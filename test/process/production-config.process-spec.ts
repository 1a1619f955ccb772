import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';
import { ensureDistBuilt } from '../helpers/built-app-process';

/** Runs dist/main.js with exactly these variables (no inherited APP_MODE, JWT_SECRET, ...). */
function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
    cwd: join(__dirname, '..', '..'),
    env: { PATH: process.env.PATH, ...SERVICE_PROCESS_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

/**
 * Issue 28 item 6: an operator learns every missing or bad production setting from one failed
 * start, not one per start, and no secret is echoed back.
 */
describe('A production start with settings missing', () => {
  let dataDir: string;

  beforeAll(() => {
    ensureDistBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cgk-production-config-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('names every one of them in one run, exits 1 before anything starts, and redacts secrets', async () => {
    const { code, output } = await start({
      // As an operator at a terminal reads it (JSON format: one service.start_failed line).
      LOG_FORMAT: 'pretty',
      APP_MODE: 'production',
      DATA_DIR: dataDir,
      PORT: '0',
      JWT_SECRET: 'too-short-hunter2',
      ATTESTER_PRIVATE_KEY: '0xhunter2',
      CHAIN_RPC_URL: 'https://user:hunter2@rpc.example.com/v2/hunter2',
    });
    expect(code).toBe(1);
    const lines = output.trimEnd().split('\n');
    expect(lines).toEqual([
      'Failed to start: Invalid configuration, 11 settings to fix:',
      expect.stringMatching(
        /^ {2}JWT_SECRET must have at least 32 characters \(got "<redacted>"\)$/,
      ),
      expect.stringMatching(
        /^ {2}SIWE_DOMAIN is required in production mode: .+\(it is not set\)$/,
      ),
      expect.stringMatching(/^ {2}ZK_ISSUER_PUBLIC_KEY is required in production mode: /),
      '  ATTESTER_PRIVATE_KEY must be 0x followed by 64 hex characters (got "<redacted>")',
      expect.stringMatching(/^ {2}COMPLIANCE_REGISTRY_ADDRESS is required with CHAIN_NETWORK=/),
      expect.stringMatching(/^ {2}COMPLIANCE_HOOK_ADDRESS is required with CHAIN_NETWORK=/),
      expect.stringMatching(/^ {2}TUSDC_ADDRESS is required with CHAIN_NETWORK=/),
      expect.stringMatching(/^ {2}MFA_ENCRYPTION_KEY is required in production mode: /),
      expect.stringMatching(/^ {2}WEBHOOK_SECRETS_KEY is required in production mode: /),
      expect.stringMatching(/^ {2}RECEIPT_SIGNING_KEY is required in production mode: /),
      expect.stringMatching(
        /^ {2}ZK_TEST_SETUP_ALLOWED must be true to start in production with the repository's test trusted setup/,
      ),
      'Every production setting is described in .env.production.example',
    ]);
    expect(output).not.toContain('hunter2');
  });
});

/**
 * Issue 40 item 4: the repository's proving key is a one-person test setup. Production refuses it
 * unless ZK_TEST_SETUP_ALLOWED=true says this is a test network; an operator's own key passes.
 */
describe("A production start with the repository's test trusted setup", () => {
  let dataDir: string;
  const settingLine = (output: string) =>
    output.split('\n').filter((line) => line.includes('ZK_TEST_SETUP_ALLOWED'));

  beforeAll(() => {
    ensureDistBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cgk-test-setup-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const production = (env: Record<string, string>) =>
    start({ APP_MODE: 'production', DATA_DIR: dataDir, PORT: '0', LOG_FORMAT: 'pretty', ...env });

  it('is refused, naming ZK_TEST_SETUP_ALLOWED, with the committed verification key at any path', async () => {
    const copy = join(dataDir, 'verification_key.json');
    copyFileSync(join(__dirname, '..', '..', 'circuits', 'build', 'verification_key.json'), copy);
    const variants: Record<string, string>[] = [
      {},
      { ZK_VERIFICATION_KEY_PATH: copy },
      { ZK_TEST_SETUP_ALLOWED: 'false' },
    ];
    for (const env of variants) {
      const { code, output } = await production(env);
      expect(code).toBe(1);
      expect(settingLine(output)).toEqual([
        expect.stringMatching(
          /^ {2}ZK_TEST_SETUP_ALLOWED must be true .*test trusted setup.*npm run cli -- zk ceremony.*ZK_VERIFICATION_KEY_PATH/,
        ),
      ]);
    }
  });

  it('passes that check with ZK_TEST_SETUP_ALLOWED=true, or with a key of its own', async () => {
    const allowed = await production({ ZK_TEST_SETUP_ALLOWED: 'true' });
    expect(allowed.code).toBe(1); // other production settings are still missing
    expect(allowed.output).toMatch(/JWT_SECRET/);
    expect(settingLine(allowed.output)).toEqual([]);

    // Another setup's key: the same circuit, another delta (what a ceremony changes).
    const committed = JSON.parse(
      readFileSync(
        join(__dirname, '..', '..', 'circuits', 'build', 'verification_key.json'),
        'utf8',
      ),
    ) as { vk_delta_2: string[][] };
    const own = join(dataDir, 'own_verification_key.json');
    writeFileSync(
      own,
      JSON.stringify({
        ...committed,
        vk_delta_2: committed.vk_delta_2.map((p) => [...p].reverse()),
      }),
    );
    const ownKey = await production({ ZK_VERIFICATION_KEY_PATH: own });
    expect(ownKey.output).toMatch(/JWT_SECRET/);
    expect(settingLine(ownKey.output)).toEqual([]);
  });
});
