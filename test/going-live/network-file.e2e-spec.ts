/**
 * Issue 28 items 4-6 on the embedded devnet (full deployment): `verify-network` through the real
 * command line, the service on a network file by path (CHAIN_NETWORK_FILE) in production mode,
 * which refuses to start on a file that does not match the chain, and a chain without the file's
 * contracts, which answers reads with 503 CHAIN_UNAVAILABLE, never 500.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';
import { devnetNetworkFile, NetworkFile } from '../../src/chain/network/network-definition';
import { DEVNET_ISSUER_PUBLIC_KEY, formatIssuerPublicKey } from '../../src/compliance/zk';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { ensureDistBuilt, startBuiltApp } from '../helpers/built-app-process';
import { ComplianceDevnet, startComplianceDevnet } from '../helpers/compliance';
import { TEST_RECEIPT_SIGNING_KEY } from '../helpers/receipts';

const ROOT = join(__dirname, '..', '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node dist/cli/main.js ...` as an operator runs it (npm run cli does the same after a build). */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/cli/main.js', ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs dist/main.js with exactly `env` until it exits (a start that fails). */
function serviceUntilExit(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...SERVICE_PROCESS_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A start that wrongly succeeds must not hang the suite.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Addresses that have no code on the devnet: "a chain without the contracts". */
const noCode = (n: number) => `0x${'00'.repeat(18)}c0${n.toString(16).padStart(2, '0')}`;

describe('Network files: verify-network and CHAIN_NETWORK_FILE (devnet)', () => {
  let chain: ComplianceDevnet;
  let dir: string;
  let production: Record<string, string>;
  const files: Record<'good' | 'wrongRegistry' | 'wrongHook' | 'undeployed', string> = {
    good: '',
    wrongRegistry: '',
    wrongHook: '',
    undeployed: '',
  };
  let good: NetworkFile;

  const write = (name: string, file: NetworkFile) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
    return path;
  };

  beforeAll(async () => {
    ensureDistBuilt();
    chain = await startComplianceDevnet();
    dir = mkdtempSync(join(tmpdir(), 'cgk-network-file-'));
    // The devnet's own file: src/config/networks/devnet.json (devnet.spec.ts keeps them equal).
    good = devnetNetworkFile(chain.deployment);
    files.good = write('good', good);
    const copy = () => structuredClone(good);
    const wrongRegistry = copy();
    wrongRegistry.contracts.complianceRegistry = good.contracts.positionDescriptor!;
    files.wrongRegistry = write('wrong-registry', wrongRegistry);
    const wrongHook = copy();
    wrongHook.contracts.complianceHook = noCode(1);
    files.wrongHook = write('wrong-hook', wrongHook);
    const undeployed = copy();
    undeployed.contracts.complianceRegistry = null;
    undeployed.contracts.complianceHook = null;
    undeployed.tokens.tUSDC.address = null;
    files.undeployed = write('undeployed', undeployed);
    production = {
      APP_MODE: 'production',
      DATA_DIR: join(dir, 'data'),
      LOG_LEVEL: 'warn',
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_SECRET: 'a-production-like-secret-of-at-least-32-characters',
      MFA_ENCRYPTION_KEY: 'a-production-mfa-key-of-at-least-32-characters',
      WEBHOOK_SECRETS_KEY: 'a-production-webhook-key-of-at-least-32-characters',
      RECEIPT_SIGNING_KEY: TEST_RECEIPT_SIGNING_KEY,
      SIWE_DOMAIN: 'app.example.com',
      ZK_ISSUER_PUBLIC_KEY: formatIssuerPublicKey(DEVNET_ISSUER_PUBLIC_KEY),
      // A twin chain with the repository's test trusted setup (issue 40: production refuses it
      // unless this says so).
      ZK_TEST_SETUP_ALLOWED: 'true',
      ATTESTER_PRIVATE_KEY: chain.attesterKey,
      // The devnet's hook is v3, whose authorizer on a devnet is the attester (issue 54).
      AUTHORIZER_PRIVATE_KEY: chain.attesterKey,
      CHAIN_RPC_URL: chain.rpcUrl,
    };
  }, 180_000);

  afterAll(async () => {
    await chain?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('npm run cli -- verify-network', () => {
    it('passes the devnet file, attester included: exit 0', async () => {
      const run = await cli(
        ['verify-network', '--rpc', chain.rpcUrl, '--network-file', files.good],
        {
          ATTESTER_PRIVATE_KEY: chain.attesterKey,
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^OK: ${files.good} matches the chain at `));
      expect(run.stdout).toContain(`attester ${chain.wallets[0].address} registered`);
    });

    it('names the swapped registry by field path: exit 1', async () => {
      const run = await cli([
        'verify-network',
        '--rpc',
        chain.rpcUrl,
        '--network-file',
        files.wrongRegistry,
      ]);
      expect(run.code).toBe(1);
      expect(run.stdout.split('\n').slice(1, -1)).toEqual([
        `contracts.complianceRegistry: the hook's registry is ${good.contracts.complianceRegistry}, the file says ${good.contracts.positionDescriptor}`,
      ]);
    });

    it('names a hook address without code, and answers JSON with --json', async () => {
      const run = await cli([
        'verify-network',
        '--rpc',
        chain.rpcUrl,
        '--network-file',
        files.wrongHook,
        '--json',
      ]);
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as {
        ok: boolean;
        checks: Array<{ field: string; ok: boolean; message: string }>;
      };
      expect(report.ok).toBe(false);
      expect(report.checks.filter((c) => !c.ok)).toEqual([
        expect.objectContaining({
          field: 'contracts.complianceHook',
          message: expect.stringMatching(/has no code on this chain$/),
        }),
        expect.objectContaining({
          field: 'contracts.complianceHook',
          message: expect.stringMatching(
            /carries the hook flags 0x0001; our hook v3 needs exactly 0x0a80/,
          ),
        }),
      ]);
    });

    it('checks every pool of the market (issue 42): initialized with liquidity, or named when not', async () => {
      const report = async (path: string) => {
        const run = await cli([
          'verify-network',
          '--rpc',
          chain.rpcUrl,
          '--network-file',
          path,
          '--json',
        ]);
        return {
          code: run.code,
          checks: (
            JSON.parse(run.stdout) as {
              checks: Array<{ field: string; ok: boolean; message: string }>;
            }
          ).checks,
        };
      };
      const ok = await report(files.good);
      expect(ok.code).toBe(0);
      for (let i = 0; i < good.pools!.length; i += 1) {
        expect(ok.checks).toContainEqual(
          expect.objectContaining({
            field: `pools[${i}]`,
            ok: true,
            message: expect.stringMatching(/is initialized/),
          }),
        );
        expect(ok.checks).toContainEqual(
          expect.objectContaining({
            field: `pools[${i}].liquidity`,
            ok: true,
            message: expect.stringMatching(/holds liquidity \d+/),
          }),
        );
      }
      for (const symbol of ['tWBTC', 'tEURC'])
        expect(ok.checks).toContainEqual(
          expect.objectContaining({ field: `tokens.${symbol}.decimals`, ok: true }),
        );
      // A pool listed in the file but never created on the chain.
      const missing = structuredClone(good);
      missing.pools!.push({
        id: null,
        currency0: 'WETH',
        currency1: 'tEURC',
        fee: 3000,
        tickSpacing: 60,
      });
      const bad = await report(write('missing-pool', missing));
      expect(bad.code).toBe(1);
      expect(bad.checks.filter((c) => !c.ok)).toEqual([
        expect.objectContaining({
          field: 'pools[4]',
          message: expect.stringMatching(
            /^WETH\/tEURC \(fee 3000, tickSpacing 60, poolId 0x[0-9a-f]{64}\) is not initialized; run npm run cli -- deploy$/,
          ),
        }),
      ]);
    });

    it('names our null fields and says to deploy', async () => {
      const run = await cli([
        'verify-network',
        '--rpc',
        chain.rpcUrl,
        '--network-file',
        files.undeployed,
      ]);
      expect(run.code).toBe(1);
      for (const field of [
        'contracts.complianceRegistry',
        'contracts.complianceHook',
        'tokens.tUSDC.address',
      ])
        expect(run.stdout).toContain(
          `${field}: is null: our contracts are not deployed on this network yet; run npm run cli -- deploy`,
        );
      expect(run.stdout).toContain(
        `To deploy: npm run cli -- deploy --rpc ${chain.rpcUrl} --network-file ${files.undeployed} --deployer-key-file <file>`,
      );
    });
  });

  describe('the service on CHAIN_NETWORK_FILE in production mode', () => {
    it('refuses to start on a file that does not match the chain, naming the field', async () => {
      // As an operator at a terminal reads it (JSON format: one service.start_failed line).
      const run = await serviceUntilExit({
        ...production,
        LOG_FORMAT: 'pretty',
        CHAIN_NETWORK_FILE: files.wrongRegistry,
      });
      expect(run.code).toBe(1);
      expect(run.stdout).not.toMatch(/Ready on/);
      expect(run.stderr).toContain(
        `Failed to start: the network file ${files.wrongRegistry} does not match the chain at ${chain.rpcUrl}:\n` +
          `  contracts.complianceRegistry: the hook's registry is ${good.contracts.complianceRegistry}, the file says ${good.contracts.positionDescriptor}\n`,
      );
    }, 90_000);

    it('refuses a file our deployment is missing from before anything starts, saying to deploy', async () => {
      const run = await serviceUntilExit({
        ...production,
        LOG_FORMAT: 'pretty',
        CHAIN_NETWORK_FILE: files.undeployed,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^Failed to start: Invalid configuration: CHAIN_NETWORK_FILE names no deployment: contracts\.complianceRegistry, contracts\.complianceHook, tokens\.tUSDC\.address are null: .* run npm run cli -- deploy /,
      );
    }, 90_000);

    it('starts on the right file and /health/ready reports the chain', async () => {
      const app = await startBuiltApp({
        ...production,
        CHAIN_NETWORK_FILE: files.good,
        // The chain's details in the answer (issue 58: off by default on the API port).
        HEALTH_DETAILS: 'true',
      });
      try {
        const ready = await fetch(`http://127.0.0.1:${app.port}/health/ready`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({
          info: { chain: { status: 'up', chainId: 84532 } },
        });
        expect(app.output()).not.toMatch(/does not match/);
      } finally {
        await app.stop();
      }
    }, 90_000);
  });

  describe('a chain without the contracts of the file (demo mode: it starts, with a warning)', () => {
    let t: TestApp;
    let token: string;
    let nothing: NetworkFile;

    beforeAll(async () => {
      // Every contract and token of the file at an address without code, Multicall3 included.
      nothing = structuredClone(good);
      let n = 16;
      for (const key of Object.keys(nothing.contracts) as Array<keyof NetworkFile['contracts']>)
        if (nothing.contracts[key]) nothing.contracts[key] = noCode((n += 1));
      for (const token of Object.values(nothing.tokens)) token.address = noCode((n += 1));
      // The pools list names the old addresses: without it the market is the spec's pool alone.
      delete nothing.pools;
      t = await createTestApp({
        env: { CHAIN_RPC_URL: chain.rpcUrl, CHAIN_NETWORK_FILE: write('nothing', nothing) },
      });
      token = await login(t, await t.createAccount());
    });
    afterAll(() => t?.close());

    it('answers quote with 503 CHAIN_UNAVAILABLE and a hint, not 500', async () => {
      const res = await request(t.server)
        .post('/api/v1/defi/quote')
        .set('Authorization', `Bearer ${token}`)
        .send({
          tokenIn: nothing.tokens.WETH.address,
          tokenOut: nothing.tokens.tUSDC.address,
          amount: '1000000000000000000',
        });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        code: 'CHAIN_UNAVAILABLE',
        message: `The chain answered a read of Multicall3 ${nothing.contracts.multicall3} with no data`,
        hint: expect.stringContaining('npm run cli -- verify-network'),
      });
    });

    it('answers preflight with 503 CHAIN_UNAVAILABLE, not 500', async () => {
      const res = await request(t.server)
        .get(`/api/v1/defi/preflight/${chain.wallets[1].address}`)
        .set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
    });
  });
});
