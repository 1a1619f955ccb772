/**
 * Issue 40 item 3: a wallet holder proves a credential without this repository. The packed client
 * package is installed in a fresh project (its dependencies, openapi-fetch and snarkjs, linked from
 * this repository's node_modules: no registry, no repository files), and plain Node asks the
 * service for a challenge, proves with `proveCredential` (the circuit's files downloaded from
 * /zk/ and checked against GET /verify/artifacts) and opens the wallet's session with POST /verify.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Wallet } from 'ethers';
import { CLIENT_DIR } from '../../scripts/client/client-files';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  openCredentialKit,
  startComplianceDevnet,
} from '../helpers/compliance';

const ROOT = join(__dirname, '..', '..');

describe('proveCredential from the packed client package, in a fresh project', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let kit: CredentialKit;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cgk-client-prove-'));
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env, listen: true });
    kit = await openCredentialKit(t, chain);
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await chain?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('packs, installs, proves with the served files and opens a session', async () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
        cwd: CLIENT_DIR,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    expect(packed.files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['dist/prove.js', 'dist/prove.d.ts']),
    );
    expect(packed.files.some((f) => f.path.includes('circuits'))).toBe(false);

    const project = join(work, 'holder');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'holder',
        private: true,
        dependencies: {
          '@compliance-defi/client': `file:${join(work, packed.filename)}`,
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

    const wallet = Wallet.createRandom().address;
    const credential = await kit.issue(wallet);
    writeFileSync(join(project, 'credential.json'), JSON.stringify(credential));
    writeFileSync(join(project, 'prove.js'), RUNNER);
    const { key } = await createApiKey(t, await login(t, await t.createAccount()), [
      'compliance:verify',
    ]);
    expect(await chain.isActive(wallet)).toBe(false);

    // Asynchronously: the service answering it runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ['prove.js'], {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        BASE_URL: `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`,
        API_KEY: key,
      },
    });
    const result = JSON.parse(stdout) as {
      verified: boolean;
      walletAddress: string;
      issuer: object;
    };
    expect(result).toMatchObject({
      verified: true,
      walletAddress: wallet,
      issuer: { name: 'default' },
    });
    expect(await chain.isActive(wallet)).toBe(true);
  }, 180_000);
});

/** The wallet holder's script: nothing from this repository but the installed package. */
const RUNNER = `
const { readFileSync } = require('node:fs');
const { createDefiClient, proveCredential } = require('@compliance-defi/client');

async function main() {
  const baseUrl = process.env.BASE_URL;
  const credential = JSON.parse(readFileSync('credential.json', 'utf8'));
  const api = createDefiClient({ baseUrl, apiKey: process.env.API_KEY });
  const challenge = await api.GET('/api/v1/verify/challenge', {
    params: { query: { walletAddress: credential.wallet } },
  });
  if (challenge.error) throw new Error(JSON.stringify(challenge.error));
  const body = await proveCredential(credential, challenge.data.challenge, { baseUrl });
  const verified = await api.POST('/api/v1/verify', { body });
  if (verified.error) throw new Error(JSON.stringify(verified.error));
  process.stdout.write(JSON.stringify(verified.data));
}
main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(String(err && err.stack ? err.stack : err));
    process.exit(1);
  },
);
`;
