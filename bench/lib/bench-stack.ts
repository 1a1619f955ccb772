import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDevnet } from '../../src/chain/devnet/devnet-process';

export const ROOT = join(__dirname, '..', '..');

/**
 * What every service bench starts with: a fresh build, a devnet in its own process, a data
 * directory, the service's environment, the operator CLI on it, and an enterprise account with
 * no practical rate limit.
 */
export async function startBenchStack(logLevel = 'info') {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'cgk-bench-'));
  const devnet = await spawnDevnet({ port: 0 });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CHAIN_RPC_URL: devnet.rpcUrl,
    CHAIN_NETWORK: 'devnet',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? logLevel,
    SEED_DEMO_ACCOUNT: 'false',
    // The auth-failure scenario measures a hash mismatch, not the per-IP throttle's 429.
    AUTH_FAILED_API_KEYS_PER_IP_PER_MINUTE: '1000000000',
  };
  const cli = (...args: string[]) =>
    JSON.parse(
      execFileSync(process.execPath, ['dist/cli/main.js', ...args], { cwd: ROOT, env }).toString(),
    );
  const email = 'bench@example.com';
  const password = 'bench password 123';
  createBenchAccount(env, email, password);
  return {
    dataDir,
    devnet,
    env,
    cli,
    email,
    password,
    async stop() {
      await devnet.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The bench account (enterprise plan, no per-minute limit) in the database `env` names, made by
 * the CLI of `tree` on `node` (this checkout on this process's Node unless told).
 */
export function createBenchAccount(
  env: NodeJS.ProcessEnv,
  email: string,
  password: string,
  { node = process.execPath, tree = ROOT }: { node?: string; tree?: string } = {},
): void {
  const cli = (...args: string[]) =>
    execFileSync(node, ['dist/cli/main.js', ...args], { cwd: tree, env });
  cli(
    'create-account',
    '--name',
    'Bench',
    '--email',
    email,
    '--password',
    password,
    '--plan',
    'enterprise',
  );
  cli('set-rate-limit', '--email', email, '--per-minute', '999999999');
}
