/**
 * Issue 58 item 6: every runbook's first command runs as written. Each "## Runbook: ..." section of
 * docs/operators/runbooks.md names its first command in its **First:** line (the first `code`
 * there); those that are a shell command an operator runs beside a replica are run here, in bash,
 * as pasted, against a service on the devnet with its metrics listener ($BASE, $METRICS) and the
 * service's database settings: each must exit 0 and print something other than null. The others
 * are named below with why they cannot run here (a contract call from a key held offline, an API
 * call with an account's token, a rotation the secret-rotation docs test runs).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../helpers/app';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { metricsListener } from '../helpers/metrics';

const ROOT = join(__dirname, '..', '..');
const RUNBOOKS = readFileSync(join(ROOT, 'docs', 'operators', 'runbooks.md'), 'utf8');
const REDIS_URL = process.env.TEST_REDIS_URL;

/** Runbooks whose first step is not a shell command that can run against a devnet, and why. */
const NOT_RUN: Record<string, string> = {
  'compromised authorizer key':
    "setAuthorizer(key, false) from the hook owner's (deployer's) key, kept offline (a contract call, not a command)",
  'compromised deployer key':
    'transferOwnership from the deployer key, which is kept offline (a contract call, not a command)',
  'compromised JWT secret':
    'the `jwt` and `jwt-end` rotation blocks, run as pasted by test/docs/secret-rotation-docs.e2e-spec.ts',
  'compromised API key':
    "DELETE /api/v1/api-keys/:id with the account's token (test/auth's API key suites call it)",
};

/** Each runbook's name and the first `code` of its **First:** line. */
function firstCommands(): Array<{ runbook: string; command: string }> {
  return RUNBOOKS.split('\n## Runbook: ')
    .slice(1)
    .map((section) => {
      const runbook = section.slice(0, section.indexOf('\n'));
      const first = /\*\*First:\*\*([\s\S]*?)(?:\n- \*\*|$)/.exec(section)?.[1] ?? '';
      const command = /`([^`]+)`/.exec(first.replace(/\n\s*/g, ' '))?.[1] ?? '';
      return { runbook, command };
    });
}

describe('docs/operators/runbooks.md: each runbook first command', () => {
  let chain: DevnetHandle;
  let t: TestApp;

  beforeAll(async () => {
    chain = await acquireDevnet();
    t = await createTestApp({
      listen: true,
      env: { ...chain.env, METRICS_PORT: '0', HEALTH_DETAILS: undefined },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.release();
    rmSync(join(ROOT, 'live', 'secrets', 'new'), { recursive: true, force: true });
  });

  /** The command in bash, as pasted, with the operator's variables and the service's settings. */
  const run = (command: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const port = (t.server.address() as { port: number }).port;
      const child = spawn('bash', ['-c', `set -euo pipefail\n${command}`], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          BASE: `http://127.0.0.1:${port}`,
          METRICS: metricsListener(t).base,
          ...t.db.env,
          ...chain.env,
          ...(REDIS_URL && { REDIS_URL }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  const runbooks = firstCommands();

  it('finds a first command in every runbook, and names why each one not run here is not', () => {
    expect(runbooks.length).toBeGreaterThanOrEqual(13);
    for (const { runbook, command } of runbooks)
      expect({ runbook, command }).toEqual({ runbook, command: expect.stringMatching(/\S/) });
    for (const name of Object.keys(NOT_RUN)) expect(runbooks.map((r) => r.runbook)).toContain(name);
  });

  for (const { runbook, command } of firstCommands()) {
    if (runbook in NOT_RUN) continue;
    const needsRedis = /REDIS_URL/.test(command);
    (needsRedis && !REDIS_URL ? it.skip : it)(
      `${runbook}: ${command}`,
      async () => {
        const result = await run(command);
        expect({ code: result.code, stderr: result.stderr }).toEqual({
          code: 0,
          stderr: expect.not.stringMatching(/error|not found|refused/i),
        });
        expect(result.stdout.trim()).not.toMatch(/^(null)?$/);
      },
      60_000,
    );
  }
});
