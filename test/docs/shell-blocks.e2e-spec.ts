/**
 * The docs run: every ```sh / ```bash block of README.md, and of docs/integrators.md followed by
 * its task pages (docs/integrators/*.md, in the order of its index), is pasted, in order, into one
 * bash per reader (`set -euo pipefail`, so a failing command or an HTTP error under
 * `curl -sS --fail-with-body` fails the page, with the error envelope printed), against a fresh service listening on a free port with the jest
 * worker's embedded devnet. The blocks get what a reader's terminal would have: `BASE` (the URL
 * the start banner prints) and `DATA_DIR` (where the demo credentials are), the repository as the
 * working directory, and nothing else of this process's environment but PATH and HOME.
 *
 * Blocks fenced ```sh no-run (or ```bash no-run) are not run: they start or deploy things
 * (`npm ci && npm start`, `bash .ci/run`, `deploy` against a real network), need the operator
 * CLI and a zero-knowledge prover (`/verify`), or show a production-only flow (SIWE signatures).
 * Every other block must succeed as written.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, loginPair } from '../helpers/auth';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { testEngine } from '../helpers/test-env';

const ROOT = join(__dirname, '..', '..');
/** The integrators' task pages, in the order of docs/integrators.md's index ("Task pages"). */
const TASK_PAGES = [
  ...(/^## Task pages\n[\s\S]*?(?=^## |(?![\s\S]))/m
    .exec(readFileSync(join(ROOT, 'docs/integrators.md'), 'utf8'))?.[0]
    .matchAll(/\]\((integrators\/[\w-]+\.md)\)/g) ?? []),
].map(([, path]) => `docs/${path}`);
/** Each run: pages whose blocks are pasted, in this order, into one shell. */
const RUNS: Record<string, string[]> = {
  'README.md': ['README.md'],
  'docs/integrators.md and its task pages': ['docs/integrators.md', ...TASK_PAGES],
};
/** Every page with shell blocks a reader may paste, run here or not. */
const ALL_PAGES = [
  'README.md',
  ...['docs', 'docs/integrators'].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${dir}/${name}`),
  ),
];
/** One page's blocks may take this long in all (a reader's bash, signing with node, the devnet). */
const PAGE_TIMEOUT_MS = 90_000;

interface ShellBlock {
  page: string;
  line: number;
  code: string;
}

/** The runnable shell blocks of a Markdown page, in order (fence info `sh`/`bash`, not `no-run`). */
function shellBlocks(page: string, markdown: string, withNoRun = false): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)(.*)$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
    const info = open[2].trim().split(/\s+/);
    if (['sh', 'bash'].includes(open[1]) && (withNoRun || !info.includes('no-run')))
      blocks.push({ page, line: start + 1, code: body.join('\n') });
  }
  return blocks;
}

interface BashResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script in bash without blocking this process's event loop (the app answers the curls). */
function runBash(script: string, env: Record<string, string>, timeoutMs: number) {
  return new Promise<BashResult>((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('The docs shell blocks', () => {
  let chain: DevnetHandle;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    // The worker's devnet back at its just-deployed state; the app runs it as its embedded chain
    // (no CHAIN_RPC_URL), so /api/v1/defi/config gives its RPC URL as a reader's would.
    chain = await acquireDevnet();
    t = await createTestApp({
      listen: true,
      env: { SEED_DEMO_ACCOUNT: 'true', CHAIN_RPC_URL: undefined, CHAIN_NETWORK: undefined },
    });
    base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    if (testEngine() === 'postgres') {
      // The demo account is seeded on the embedded SQLite default only; on PostgreSQL an operator
      // creates it (`npm run cli -- create-account`): the file stands in for what they would note.
      const account = await t.createAccount({ email: 'demo@example.com', plan: 'pro' });
      writeFileSync(
        join(t.db.dataDir, 'demo-credentials.json'),
        JSON.stringify({ email: account.email, password: account.password }),
        { mode: 0o600 },
      );
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.release();
  });

  it('finds the blocks to run and the ones marked no-run', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(shellBlocks('README.md', readme).length).toBeGreaterThanOrEqual(4);
    expect(readme).toMatch(/```(sh|bash) no-run/);
  });

  it("runs every integrators' task page: the index of docs/integrators.md lists each once", () => {
    const onDisk = readdirSync(join(ROOT, 'docs/integrators'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/integrators/${name}`);
    expect(TASK_PAGES.length).toBeGreaterThan(0);
    expect(new Set(TASK_PAGES).size).toBe(TASK_PAGES.length);
    expect([...TASK_PAGES].sort()).toEqual(onDisk.sort());
  });

  it('has no curl that hides the error body of a failed call (-f / --fail without -with-body)', () => {
    const hiding: string[] = [];
    for (const page of ALL_PAGES)
      for (const block of shellBlocks(page, readFileSync(join(ROOT, page), 'utf8'), true))
        block.code.split('\n').forEach((text, i) => {
          const hides = /\bcurl\b.*(\s-[a-zA-Z]*f[a-zA-Z]*\s|\s--fail(?!-with-body))/.test(
            text + ' ',
          );
          if (hides) hiding.push(`${page}:${block.line + 1 + i}: ${text.trim()}`);
        });
    expect(hiding).toEqual([]);
  });

  it('a refused call as the docs write it prints the error envelope and fails', async () => {
    const result = await runBash(
      `set -euo pipefail\ncurl -sS --fail-with-body $BASE/api/v1/usage/stats -H 'X-API-Key: cgk_test_nope' | jq -c '{code, hint}'`,
      { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', BASE: base },
      10_000,
    );
    expect(result.code).toBe(22);
    expect(JSON.parse(result.stdout)).toMatchObject({ code: 'API_KEY_FORMAT_INVALID' });
  });

  it("the integrators' send_calls stops at a call the relay refuses, printing the envelope, and polls nothing (issue 53 item 1)", async () => {
    const page = readFileSync(join(ROOT, 'docs/integrators/sending-transactions.md'), 'utf8');
    const helper = /^send_calls\(\) \{\n[\s\S]*?\n\}$/m.exec(page)?.[0];
    expect(helper).toBeDefined();
    const account = await t.createAccount();
    const { accessToken } = await loginPair(t, account);
    const { key } = await createApiKey(t, accessToken, ['defi:broadcast']);
    const wallet = chain.wallets[6];
    // A call the service never builds (a token transfer), then one it would: the first stops it.
    const calls = [
      { to: chain.addresses.tUSDC, data: `0xa9059cbb${'00'.repeat(64)}`, value: '0' },
      { to: chain.addresses.tUSDC, data: '0x', value: '0' },
    ];
    const result = await runBash(
      `set -euo pipefail\n${helper}\nsend_calls '${JSON.stringify({ calls })}' && echo sent-all || echo "stopped: $?"`,
      {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        BASE: base,
        KEY: key,
        RPC: chain.rpcUrl,
        WALLET_KEY: wallet.privateKey,
      },
      // The helper this replaced polled GET /transactions/null until killed here.
      30_000,
    );
    expect(result.stdout.trim()).toBe('stopped: 1');
    // curl's own line ("The requested URL returned error: 400"), then the envelope.
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1)!)).toMatchObject({
      code: 'BROADCAST_TARGET_NOT_ALLOWED',
      hint: expect.any(String),
    });
  });

  it('runs the two-factor section: a code computed with the installed otplib enables it', () => {
    const blocks = shellBlocks(
      'docs/integrators/members-and-audit.md',
      readFileSync(join(ROOT, 'docs/integrators/members-and-audit.md'), 'utf8'),
    );
    expect(blocks.some((b) => b.code.includes('/totp/enable') && b.code.includes('@otplib'))).toBe(
      true,
    );
  });

  it.each(Object.keys(RUNS))(
    'runs every shell block of %s, in order, against a fresh service',
    async (page) => {
      const blocks = RUNS[page].flatMap((path) =>
        shellBlocks(path, readFileSync(join(ROOT, path), 'utf8')),
      );
      expect(blocks.length).toBeGreaterThan(0);
      const script = [
        'set -euo pipefail',
        ...blocks.map((b) => `echo '>>> ${b.page}:${b.line}' >&2\n${b.code}`),
      ].join('\n');
      const result = await runBash(
        script,
        {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          BASE: base,
          DATA_DIR: t.db.dataDir,
        },
        PAGE_TIMEOUT_MS,
      );
      const failedAt = [...result.stderr.matchAll(/^>>> (.+)$/gm)].pop()?.[1];
      if (result.code !== 0)
        throw new Error(
          `${page}: the block at ${failedAt} failed (exit ${result.code})\n` +
            `--- stdout (tail) ---\n${result.stdout.slice(-3000)}\n` +
            `--- stderr (tail) ---\n${result.stderr.slice(-3000)}`,
        );
      // Every block ran (the last marker is the last block's).
      expect(failedAt).toBe(`${blocks.at(-1)!.page}:${blocks.at(-1)!.line}`);
    },
    PAGE_TIMEOUT_MS + 10_000,
  );
});
