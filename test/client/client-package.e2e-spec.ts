/**
 * Issue 31 item 6: clients/typescript is a package. `npm pack` makes a tarball with compiled JS,
 * .d.ts and the README; a fresh project installs it (offline: openapi-fetch is linked from this
 * repository's node_modules), compiles the integrator's whole swap flow under `tsc --strict`
 * without a cast (quote, swap with a signed permit, relay, status), and plain Node runs the
 * compiled flow against the service on the devnet.
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLIENT_DIR } from '../../scripts/client/client-files';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { DefiDevnet, startDefiDevnet } from '../helpers/defi';

const ROOT = join(__dirname, '..', '..');
const FLOW = join(CLIENT_DIR, 'examples', 'swap-flow.ts');

describe('clients/typescript as an npm package', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let work: string;
  let project: string;
  let tarball: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cgk-client-package-'));
    chain = await startDefiDevnet();
    t = await createTestApp({ env: { CHAIN_RPC_URL: chain.rpcUrl }, listen: true });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('packs compiled JS, declarations, the document and the README', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
        cwd: CLIENT_DIR,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ) as Array<{ name: string; version: string; filename: string; files: Array<{ path: string }> }>;
    tarball = join(work, packed.filename);
    expect(packed.name).toBe('@compliance-defi/client');
    expect(packed.version).toBe('0.3.0');
    // The docs name the tarball `npm run client:pack` makes (issue 53 item 6).
    for (const page of ['docs/integrators/typescript-client.md', 'clients/typescript/README.md']) {
      const named = readFileSync(join(ROOT, page), 'utf8').match(
        /compliance-defi-client-[\w.-]+?\.tgz/g,
      );
      expect({ page, named: [...new Set(named)] }).toEqual({ page, named: [packed.filename] });
    }
    expect(packed.files.map((f) => f.path).sort()).toEqual([
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/prove.d.ts',
      'dist/prove.js',
      'dist/schema.d.ts',
      'openapi.json',
      'package.json',
    ]);
  }, 60_000);

  it('installs in a fresh project and compiles the whole flow under tsc --strict, no cast', () => {
    project = join(work, 'integrator');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'integrator',
        private: true,
        dependencies: {
          '@compliance-defi/client': `file:${tarball}`,
          // The package's dependencies, from this repository instead of the registry.
          'openapi-fetch': `file:${join(ROOT, 'node_modules', 'openapi-fetch')}`,
          snarkjs: `file:${join(ROOT, 'node_modules', 'snarkjs')}`,
        },
      }),
    );
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          // As `tsc --init` writes it; the package's declarations are checked when it is built.
          skipLibCheck: true,
          module: 'node20',
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          types: [],
          outDir: 'dist',
          rootDir: 'src',
          noUncheckedIndexedAccess: true,
        },
        include: ['src'],
      }),
    );
    copyFileSync(FLOW, join(project, 'src', 'swap-flow.ts'));
    const source = readFileSync(FLOW, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(source.match(/\bas\s+[A-Za-z{[(]|<[A-Z]\w*>\s*[a-z(]|!\.|!\)/g)).toBeNull();

    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', '.', '--strict'], {
        cwd: project,
        encoding: 'utf8',
      });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(output).toBe('');
    expect(readFileSync(join(project, 'dist', 'swap-flow.js'), 'utf8')).toContain(
      'require("@compliance-defi/client")',
    );
  }, 60_000);

  it('runs the compiled flow with plain Node: quote, permit, relay, status CONFIRMED', async () => {
    const wallet = chain.wallets[7];
    await chain.activate(wallet.address);
    const account = await t.createAccount();
    const { key } = await createApiKey(t, await login(t, account), [
      'defi:swap',
      'defi:broadcast',
      'defi:preflight',
    ]);
    const { WETH, tUSDC } = chain.deployment.tokens;
    const before = await chain.balanceOf(tUSDC, wallet.address);
    writeFileSync(join(project, 'run.js'), RUNNER);

    // Asynchronously: the app answering the flow runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ['run.js'], {
      cwd: project,
      env: {
        ...process.env,
        ETHERS: require.resolve('ethers'),
        BASE_URL: `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`,
        API_KEY: key,
        RPC_URL: chain.rpcUrl,
        PRIVATE_KEY: wallet.privateKey,
        TOKEN_IN: WETH,
        TOKEN_OUT: tUSDC,
        AMOUNT: '10000000000000000',
      },
    });
    const result = JSON.parse(stdout) as {
      quotedAmountOut: string;
      usedPermit: boolean;
      approvals: number;
      status: { status: string; kind: string; swap?: { amountOut: string } };
    };
    expect(result.usedPermit).toBe(true);
    expect(result.status).toMatchObject({ status: 'CONFIRMED', kind: 'swap' });
    const received = (await chain.balanceOf(tUSDC, wallet.address)) - before;
    expect(result.status.swap?.amountOut).toBe(received.toString());
    expect(BigInt(result.quotedAmountOut)).toBeGreaterThanOrEqual(received);
  }, 60_000);
});

/** The integrator's entry point: an ethers wallet behind the flow's two signing calls. */
const RUNNER = `
const { JsonRpcProvider, Wallet } = require(process.env.ETHERS);
const { swapWithPermit } = require('./dist/swap-flow.js');

// cacheTimeout -1: ethers reuses an identical request's answer for 250 ms by default, so the
// swap signed right after its approval confirmed would get the approval's pending nonce again.
const provider = new JsonRpcProvider(process.env.RPC_URL, undefined, { cacheTimeout: -1 });
const signer = new Wallet(process.env.PRIVATE_KEY, provider);
const wallet = {
  address: signer.address,
  signTypedData: (domain, types, values) => signer.signTypedData(domain, types, values),
  signTransaction: async (tx) => signer.signTransaction(await signer.populateTransaction(tx)),
};
swapWithPermit({
  baseUrl: process.env.BASE_URL,
  apiKey: process.env.API_KEY,
  wallet,
  tokenIn: process.env.TOKEN_IN,
  tokenOut: process.env.TOKEN_OUT,
  amount: process.env.AMOUNT,
  pollMs: 100,
}).then(
  (result) => {
    process.stdout.write(JSON.stringify({ ...result, approvals: result.build.approvals.length }));
    process.exit(0);
  },
  (err) => {
    process.stderr.write(String(err && err.stack ? err.stack : err));
    process.exit(1);
  },
);
`;
