import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { Agent, fetch } from 'undici';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';
import { devnetPrivateKeys } from '../../src/chain/devnet/devnet';
import type { NetworkFile } from '../../src/chain/network/network-definition';
import { parseCredentialFile } from '../../src/compliance/zk/credential-file';
import { proveCredential } from '../../src/compliance/zk/proof-generator';
import { ensureDistBuilt, startBuiltApp, type BuiltAppProcess } from '../helpers/built-app-process';
import { closedPort } from '../helpers/ports';
import { pollUntil } from '../helpers/wait';

const ROOT = join(__dirname, '..', '..');
const ERC20 = ['function balanceOf(address) view returns (uint256)'];
const REGISTRY = ['function isActive(address wallet) view returns (bool)'];

// The service's JSON answers, read field by field below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command as an operator types it, in the project directory, with exactly this environment. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        timeout: 180_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The `bash` block of docs/operators/going-live.md's "Going live" section. */
function readmeGoingLiveBlock(): string {
  const readme = readFileSync(join(ROOT, 'docs', 'operators', 'going-live.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Going live\n'));
  const match = /```bash\n([\s\S]*?)```/.exec(section);
  if (!match)
    throw new Error('docs/operators/going-live.md has no bash block under "## Going live"');
  return match[1];
}

/** NAME=value lines of an env file (comments skipped). */
function envFile(path: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

const cli = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, ['dist/cli/main.js', ...args], env);

/**
 * Issue 28, "Done when": from a chain that has only the public infrastructure (the stand-in for
 * Base Sepolia) to a swap that executes, through the operator's commands only: `devnet --bare`,
 * `keys generate`, `deploy`, `verify-network`, the service in production mode on the network file,
 * SIWE binding, a credential proven through /verify (the attester activates the session on this
 * chain), a native-ETH swap built, signed, broadcast and executed. Then: a second deploy sends
 * nothing, and a network file with one wrong address stops the service from starting.
 */
describe('Going live: bare chain -> deploy -> verify -> production service -> a swap that executes', () => {
  let dir: string;
  let devnet: ChildProcess;
  let rpcUrl: string;
  let provider: JsonRpcProvider;
  let bareFile: string;
  let networkFile: string;
  let secrets: string;
  let app: BuiltAppProcess | undefined;
  let env: Record<string, string>;
  let issuerPrivateKeyFile: string;
  const [deployerKey, funderKey, userKey] = devnetPrivateKeys(3);

  beforeAll(async () => {
    ensureDistBuilt();
    dir = mkdtempSync(join(tmpdir(), 'cgk-going-live-'));
    bareFile = join(dir, 'bare-network.json');
    networkFile = join(dir, 'live', 'base-sepolia.json');
    secrets = join(dir, 'live', 'secrets');
    const port = await closedPort();
    rpcUrl = `http://127.0.0.1:${port}`;
    devnet = spawn(
      'npm',
      ['run', '-s', 'devnet', '--', '--bare', '--network-file', bareFile, '--port', `${port}`],
      { cwd: ROOT, stdio: 'ignore', detached: true },
    );
    provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true });
    await pollUntil(
      'the bare devnet and its network file',
      async () => {
        try {
          readFileSync(bareFile);
          return (await provider.getBlockNumber()) >= 0;
        } catch {
          return false;
        }
      },
      (ready) => ready,
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  }, 240_000);

  afterAll(async () => {
    if (app) await app.stop();
    if (devnet?.pid) {
      try {
        process.kill(-devnet.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
    provider?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes a network file with the infrastructure and our contracts still null', () => {
    const file = JSON.parse(readFileSync(bareFile, 'utf8')) as NetworkFile;
    expect(file.chainId).toBe(84532);
    expect(file.contracts.poolManager).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(file.contracts.complianceRegistry).toBeNull();
    expect(file.contracts.complianceHook).toBeNull();
    expect(file.tokens.tUSDC.address).toBeNull();
  });

  it('deploys, verifies, and serves a compliant wallet a swap that executes', async () => {
    // 1-3. README "Going live", as pasted: keys, deploy, verify. What differs from Base Sepolia
    // is the RPC, where the files live, and the file copied (the bare chain's, not the shipped
    // base-sepolia.json). The deployer's key is where the README says to put it.
    mkdirSync(secrets, { recursive: true, mode: 0o700 });
    writeFileSync(join(secrets, 'deployer.key'), `${deployerKey}\n`, { mode: 0o600 });
    const block = readmeGoingLiveBlock()
      .replace(/^RPC=.*$/m, `RPC=${rpcUrl}`)
      .replace(/^F=.*$/m, `F=${networkFile}`)
      .replace(/^S=.*$/m, `S=${secrets}`)
      .replace('src/config/networks/base-sepolia.json', bareFile);
    // A script file, not `bash -c`: given a socket for stdin (node's pipes), `bash -c` acts as
    // if started by rshd and reads /etc/bash.bashrc.
    const script = join(dir, 'going-live.sh');
    writeFileSync(script, block);
    const pasted = await run('bash', ['-euo', 'pipefail', script]);
    expect(pasted.stderr).toBe('');
    expect(pasted.code).toBe(0);
    expect(pasted.stdout).toMatch(/^ZK_ISSUER_PUBLIC_KEY=/m);
    expect(pasted.stdout).toMatch(/complianceHook/);
    expect(pasted.stdout).toMatch(/^OK: /m);
    const issuer = envFile(join(secrets, 'zk-issuer.env'));
    const attesterKey = envFile(join(secrets, 'attester.env')).ATTESTER_PRIVATE_KEY;
    const attester = new Wallet(attesterKey).address;
    issuerPrivateKeyFile = join(secrets, 'zk-issuer.env');
    const afterDeploy = readFileSync(networkFile, 'utf8');
    // The deployer's key is in no output and not in the file.
    for (const text of [pasted.stdout, afterDeploy])
      expect(text.toLowerCase()).not.toContain(deployerKey.slice(2).toLowerCase());
    const file = JSON.parse(afterDeploy) as NetworkFile;
    for (const address of [
      file.contracts.complianceRegistry,
      file.contracts.complianceHook,
      file.tokens.tUSDC.address,
    ])
      expect(await provider.getCode(address!)).not.toBe('0x');
    expect(file.deployment?.attester).toBe(attester);
    // The going-live flow deploys the current hook (v3: sanctions screening and per-trade
    // authorizations, issue 54), nothing deprecated.
    const hook = new Contract(
      file.contracts.complianceHook!,
      ['function VERSION() view returns (uint8)'],
      provider,
    );
    expect(await hook.VERSION()).toBe(3n);
    // The attester pays for activations: fund it, as the README says.
    const funder = new Wallet(funderKey, provider);
    await (await funder.sendTransaction({ to: attester, value: 10n ** 18n })).wait();

    // 4. The service in production mode on that chain and file.
    env = {
      APP_MODE: 'production',
      DATA_DIR: join(dir, 'data'),
      CHAIN_RPC_URL: rpcUrl,
      CHAIN_NETWORK_FILE: networkFile,
      JWT_SECRET: 'a-production-secret-of-at-least-32-characters-long',
      MFA_ENCRYPTION_KEY: 'a-production-mfa-key-of-at-least-32-characters',
      WEBHOOK_SECRETS_KEY: 'a-production-webhook-key-of-at-least-32-characters',
      // The receipt key `keys generate` wrote (issue 56).
      RECEIPT_SIGNING_KEY: envFile(join(secrets, 'receipt-signing.env')).RECEIPT_SIGNING_KEY,
      SIWE_DOMAIN: 'app.example.com',
      ATTESTER_PRIVATE_KEY: attesterKey,
      // Deploy's default authorizer is the attester (docs/operators/going-live.md); production
      // on a v3 hook asks for the authorizer's key by name.
      AUTHORIZER_PRIVATE_KEY: attesterKey,
      ZK_ISSUER_PUBLIC_KEY: issuer.ZK_ISSUER_PUBLIC_KEY,
      // The repository's test trusted setup, on a test chain (issue 40).
      ZK_TEST_SETUP_ALLOWED: 'true',
      LOG_FORMAT: 'json',
    };
    app = await startBuiltApp({ ...env, DATABASE_URL: '', REDIS_URL: '' });
    const base = `http://127.0.0.1:${app.port}`;
    // A proof takes seconds of this process's event loop; a kept-alive connection the server
    // closed meanwhile would look alive to a client that had no turn to read the FIN.
    const oneRequestPerConnection = new Agent({ pipelining: 0 });
    const http = async (method: string, path: string, body?: object, token?: string) => {
      const res = await fetch(`${base}${path}`, {
        dispatcher: oneRequestPerConnection,
        method,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    expect((await http('GET', '/health/ready')).status).toBe(200);

    // An institution's account (operator CLI on the service's database), its login.
    const account = { email: 'ops@bank.example', password: 'correct horse battery staple' };
    const created = await cli(
      [
        'create-account',
        '--name',
        'Bank',
        '--email',
        account.email,
        '--password',
        account.password,
      ],
      env,
    );
    expect(created.code).toBe(0);
    const token = (await http('POST', '/auth/login', account)).body.accessToken as string;
    expect(token).toBeTruthy();

    // 5. Bind the user's wallet with Sign-In-with-Ethereum.
    const user = new Wallet(userKey, provider);
    const nonce = await http(
      'GET',
      `/onboarding/nonce?walletAddress=${user.address}`,
      undefined,
      token,
    );
    expect(nonce.body).toMatchObject({ domain: 'app.example.com', chainId: 84532 });
    const bound = await http(
      'POST',
      '/onboarding/register',
      {
        walletAddress: user.address,
        message: nonce.body.message,
        signature: await user.signMessage(nonce.body.message as string),
      },
      token,
    );
    expect(bound).toMatchObject({ status: 200, body: { bound: true } });

    // 6. The issuer hands out a credential; the holder proves it; the attester activates.
    const credentialPath = join(dir, 'credential.json');
    const issued = await cli(
      ['credentials', 'issue', '--wallet', user.address, '--out', credentialPath],
      { ...env, ...envFile(issuerPrivateKeyFile) },
    );
    expect(issued.code).toBe(0);
    const credential = parseCredentialFile(JSON.parse(readFileSync(credentialPath, 'utf8')));
    const challenge = await http(
      'GET',
      `/verify/challenge?walletAddress=${user.address}`,
      undefined,
      token,
    );
    const proof = await proveCredential(credential, { challenge: challenge.body.challenge });
    const verified = await http(
      'POST',
      '/verify',
      { walletAddress: user.address, proof: proof.proof, publicSignals: proof.publicSignals },
      token,
    );
    expect(verified.status).toBe(200);
    const registry = new Contract(file.contracts.complianceRegistry!, REGISTRY, provider);
    expect(await registry.isActive(user.address)).toBe(true);

    // 7. A native-ETH swap: built by the service, signed and broadcast by the wallet, executed.
    const tUSDC = new Contract(file.tokens.tUSDC.address!, ERC20, provider);
    const before = (await tUSDC.balanceOf(user.address)) as bigint;
    const swap = await http(
      'POST',
      '/api/v1/defi/swap',
      {
        tokenIn: '0x0000000000000000000000000000000000000000',
        tokenOut: file.tokens.tUSDC.address,
        amount: '10000000000000000',
        userAddress: user.address,
      },
      token,
    );
    expect(swap.status).toBe(200);
    expect(swap.body.simulation).toMatchObject({ ok: true });
    const tx = swap.body.transaction as { to: string; data: string; value: string; gas: string };
    const receipt = await (
      await user.sendTransaction({
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        gasLimit: BigInt(tx.gas),
      })
    ).wait();
    expect(receipt!.status).toBe(1);
    const received = ((await tUSDC.balanceOf(user.address)) as bigint) - before;
    expect(received).toBeGreaterThanOrEqual(BigInt(swap.body.minAmountOut as string));

    await app.stop();
    app = undefined;
  }, 300_000);

  it('a second deploy sends nothing and says so', async () => {
    const keyFile = join(secrets, 'deployer.key');
    const deployer = new Wallet(deployerKey);
    const nonceBefore = await provider.getTransactionCount(deployer.address);
    const before = readFileSync(networkFile, 'utf8');
    const again = await cli([
      'deploy',
      '--rpc',
      rpcUrl,
      '--network-file',
      networkFile,
      '--deployer-key-file',
      keyFile,
      '--attester',
      JSON.parse(before).deployment.attester,
      '--test-token',
      '--seed-liquidity',
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing to do/i);
    expect(await provider.getTransactionCount(deployer.address)).toBe(nonceBefore);
    expect(JSON.parse(readFileSync(networkFile, 'utf8'))).toEqual(JSON.parse(before));
  }, 120_000);

  it('refuses to start on a network file with one wrong address, naming the field', async () => {
    const file = JSON.parse(readFileSync(networkFile, 'utf8')) as NetworkFile;
    const wrong = join(dir, 'wrong-network.json');
    // The registry's address where the hook should be: code there, but not our hook.
    writeFileSync(
      wrong,
      JSON.stringify({
        ...file,
        contracts: { ...file.contracts, complianceHook: file.contracts.complianceRegistry },
      }),
    );
    const { code, stdout, stderr } = await new Promise<Run>((resolve) => {
      const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          ...SERVICE_PROCESS_ENV,
          ...env,
          CHAIN_NETWORK_FILE: wrong,
          PORT: '0',
          HOST: '127.0.0.1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.once('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    });
    expect(code).not.toBe(0);
    expect(`${stdout}${stderr}`).toContain('contracts.complianceHook');
    expect(`${stdout}${stderr}`).not.toMatch(/Ready on/);
  }, 120_000);
});
