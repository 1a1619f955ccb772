import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { BuiltAppProcess, ensureDistBuilt, startBuiltApp } from '../helpers/built-app-process';

/**
 * Issue 53 item 5: the CLI finds the chain of the service it belongs to. The service runs its
 * embedded devnet on an ephemeral port (DEVNET_PORT=0, as when 8545 is taken); the CLI, given only
 * the service's DATA_DIR (no DEVNET_PORT, no CHAIN_RPC_URL, no --rpc), reaches that devnet, for a
 * standalone command (sanctions) and one of the app's (attest), and says which RPC URL it used.
 * Once the service stops, the CLI says it found no running service.
 */
describe("CLI on the running service's chain", () => {
  const root = join(__dirname, '..', '..');
  let dataDir: string;
  let service: BuiltAppProcess | undefined;
  let rpcUrl: string;

  beforeAll(async () => {
    ensureDistBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cgk-cli-chain-'));
    service = await startBuiltApp({ DATA_DIR: dataDir });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The CLI as `npm run cli` runs it, with the service's DATA_DIR and nothing else of it. */
  const cli = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(root, 'dist/cli/main.js'), ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, ...env },
      timeout: 60_000,
    });

  it('the service records where its embedded devnet listens, in DATA_DIR', async () => {
    const recorded = JSON.parse(readFileSync(join(dataDir, 'devnet.json'), 'utf8'));
    expect(recorded).toMatchObject({ chainId: 84532, pid: expect.any(Number) });
    rpcUrl = recorded.rpcUrl;
    expect(rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(rpcUrl).not.toBe('http://127.0.0.1:8545');
    // The devnet of the banner, answering there.
    expect(service!.output()).toContain(rpcUrl);
    const answer = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(((await answer.json()) as { result: string }).result).toBe('0x14a34');
  });

  it("runs the block of docs/operators/cli-chain.md as written, with only the service's DATA_DIR", () => {
    const page = readFileSync(join(root, 'docs/operators/cli-chain.md'), 'utf8');
    const block = /```bash no-run\n([\s\S]*?)\n```/.exec(page)![1];
    expect(block).toBe('npm run -s cli -- sanctions list');
    const run = spawnSync('bash', ['-c', `set -euo pipefail\n${block}`], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir },
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      new RegExp(`^chain: ${rpcUrl} \\(the embedded devnet of the service running as pid \\d+ `),
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ sanctioned: expect.any(Array) });
  }, 60_000);

  it('sanctions add and list reach that devnet, and say which RPC URL they used', () => {
    const wallet = Wallet.createRandom().address;
    const added = cli(['sanctions', 'add', wallet]);
    expect(added.stderr).toBe(
      `chain: ${rpcUrl} (the embedded devnet of the service running as pid ${
        JSON.parse(readFileSync(join(dataDir, 'devnet.json'), 'utf8')).pid
      } (${join(dataDir, 'devnet.json')}))\n`,
    );
    expect(added.status).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ wallet, sanctioned: true });
    const listed = cli(['sanctions', 'list']);
    expect(JSON.parse(listed.stdout).sanctioned).toContain(wallet);
  });

  it('an app command (attest, the test attester) sends to that devnet too', () => {
    const wallet = Wallet.createRandom().address;
    const attested = cli(['attest', '--kind', 'account', '--wallet', wallet]);
    expect(attested.stderr).toContain(`chain: ${rpcUrl} (the embedded devnet of the service`);
    expect(attested.status).toBe(0);
    expect(JSON.parse(attested.stdout)).toMatchObject({
      uid: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      kind: 'account',
      wallet,
    });
  }, 60_000);

  it('once the service stops, the record is gone and the CLI says it found no running service', async () => {
    await service!.stop();
    service = undefined;
    expect(existsSync(join(dataDir, 'devnet.json'))).toBe(false);
    // DEVNET_PORT 1: nothing listens there (8545 may be another devnet on a shared machine).
    const run = cli(['sanctions', 'list'], { DEVNET_PORT: '1' });
    expect(run.stderr).toContain(
      `chain: http://127.0.0.1:1 (DEVNET_PORT: no running service recorded its devnet in ${join(dataDir, 'devnet.json')})`,
    );
    expect(run.status).not.toBe(0);
  }, 60_000);
});
