/**
 * docs/operators/compliance-receipts.md "Rotating it", run as an operator would: the block on a
 * real env file, then the service restarted on that file. Receipts signed before the rotation
 * still verify against the JWKS, which now lists the new key first.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { generateEs256Key, parseEs256PrivateKey } from '../../src/config/es256-key';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { getReceipt, jwksOf, verifyJws } from '../helpers/receipts';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';

const ROOT = join(__dirname, '..', '..');
const PAGE = readFileSync(join(ROOT, 'docs', 'operators', 'compliance-receipts.md'), 'utf8');

function block(id: string): string {
  const match = new RegExp('^```bash receipts=' + id + '\\n([\\s\\S]*?)^```$', 'm').exec(PAGE);
  if (!match) throw new Error(`docs/operators/compliance-receipts.md has no receipts=${id} block`);
  return match[1];
}

function bash(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, env });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('docs/operators/compliance-receipts.md "Rotating it"', () => {
  let chain: DevnetHandle;
  let db: TestDatabase;
  let dir: string;
  let t: TestApp | undefined;

  beforeAll(async () => {
    chain = await acquireDevnet();
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'cgk-receipt-key-docs-'));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await chain?.release();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts a new key in the env file; restarted on it, the service verifies receipts of both keys', async () => {
    const envFile = join(dir, '.env.production');
    const old = generateEs256Key();
    writeFileSync(envFile, `JWT_SECRET=${'j'.repeat(48)}\nRECEIPT_SIGNING_KEY=${old.pkcs8}\n`, {
      mode: 0o600,
    });
    const read = () =>
      Object.fromEntries(
        readFileSync(envFile, 'utf8')
          .split('\n')
          .flatMap((line) =>
            /^[A-Z_]+=/.test(line)
              ? [[line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]]
              : [],
          ),
      );
    const boot = () => createTestApp({ db, env: { ...chain.env, ...read() } });

    t = await boot();
    const account = await t.createAccount();
    const token = await login(t, account);
    const build = async (app: TestApp) =>
      (
        await request(app.server)
          .post('/api/v1/defi/swap?buildOnly=true')
          .set('Authorization', `Bearer ${token}`)
          .send({
            tokenIn: chain.addresses.WETH,
            tokenOut: chain.addresses.tUSDC,
            amount: '1000000000000000',
            userAddress: chain.wallets[1].address,
          })
          .expect(200)
      ).body.receiptId as string;
    const before = await build(t);
    await t.close();
    t = undefined;

    const ran = await bash(block('rotate'), {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      ENV_FILE: envFile,
    });
    expect(ran).toMatchObject({ code: 0 });
    const env = read();
    expect(Object.keys(env)).toEqual(['JWT_SECRET', 'RECEIPT_SIGNING_KEY']);
    const next = parseEs256PrivateKey(env.RECEIPT_SIGNING_KEY)!;
    expect(next.kid).not.toBe(old.kid);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);

    t = await boot();
    const jwks = await jwksOf(t);
    expect(jwks.keys.map((key) => key.kid)).toEqual([next.kid, old.kid]);
    const oldReceipt = await getReceipt(t, token, before);
    expect((await verifyJws(oldReceipt.jws, jwks)).protectedHeader.kid).toBe(old.kid);
    const newReceipt = await getReceipt(t, token, await build(t));
    expect((await verifyJws(newReceipt.jws, jwks)).protectedHeader.kid).toBe(next.kid);
  }, 120_000);
});
