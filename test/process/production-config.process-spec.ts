import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
      'Failed to start: Invalid configuration, 9 settings to fix:',
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
      'Every production setting is described in .env.production.example',
    ]);
    expect(output).not.toContain('hunter2');
  });
});
