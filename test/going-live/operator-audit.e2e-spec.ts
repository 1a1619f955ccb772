/**
 * Issue 58 item 3: an operator's changes are on the record. Through the real command line (the
 * built CLI, as `npm run cli` runs it) on a database of its own and the devnet: create-account,
 * users reset-mfa (in the account's audit trail), issuers add, sanctions add, attester fund (no
 * account: operator events), each with actor { type: "operator", id: OPERATOR_ID }; `audit list`
 * shows them all, newest first. A change the database cannot record is still made and says so.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { devnetPrivateKeys } from '../../src/chain/devnet/devnet';
import { ensureDistBuilt } from '../helpers/built-app-process';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { closedPortUrl } from '../helpers/ports';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';

const ROOT = join(__dirname, '..', '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('Operator changes on the record (the CLI)', () => {
  let chain: DevnetHandle;
  let db: TestDatabase;
  let dir: string;
  let funderKeyFile: string;

  beforeAll(async () => {
    ensureDistBuilt();
    chain = await acquireDevnet();
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'cgk-operator-audit-'));
    funderKeyFile = join(dir, 'funder.key');
    writeFileSync(funderKeyFile, `${devnetPrivateKeys(3)[2]}\n`);
    chmodSync(funderKeyFile, 0o600);
  }, 120_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db?.drop();
    await chain?.release();
  });

  /** `node dist/cli/main.js ...` with the service's database settings and the operator's name. */
  const cli = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ['dist/cli/main.js', ...args],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            LOG_LEVEL: 'silent',
            ...db.env,
            OPERATOR_ID: 'ops-alice',
            ...env,
          },
          timeout: 120_000,
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const ok = async (args: string[], env?: Record<string, string>) => {
    const run = await cli(args, env);
    if (run.code !== 0) throw new Error(`${args.join(' ')} exited ${run.code}: ${run.stderr}`);
    // Nothing on stderr but which chain a chain command used (the CLI's notice).
    expect(run.stderr.split('\n').filter((line) => line && !line.startsWith('chain: '))).toEqual(
      [],
    );
    return run.stdout;
  };

  it('create-account, users reset-mfa, issuers add, sanctions add, attester fund: each in audit list with the operator', async () => {
    const account = JSON.parse(
      await ok([
        'create-account',
        '--name',
        'Audited Co',
        '--email',
        'ops@audited.test',
        '--password',
        'a long password!',
      ]),
    );
    await ok(['users', 'reset-mfa', '--email', 'ops@audited.test']);
    const issuerKey = JSON.parse(await ok(['keys', 'generate', '--json'])).ZK_ISSUER_PUBLIC_KEY;
    await ok(['issuers', 'add', '--name', 'acme-kyc', '--public-key', issuerKey]);
    const listed = Wallet.createRandom().address;
    const sanctioned = JSON.parse(await ok(['sanctions', 'add', listed, '--rpc', chain.rpcUrl]));
    expect(sanctioned).toMatchObject({ wallet: listed, sanctioned: true });
    const attester = chain.wallets[0].address;
    const funded = JSON.parse(
      await ok([
        'attester',
        'fund',
        '--rpc',
        chain.rpcUrl,
        '--from-key-file',
        funderKeyFile,
        '--amount-eth',
        '0.01',
        '--to',
        attester,
        '--json',
      ]),
    );

    const { items } = JSON.parse(await ok(['audit', 'list']));
    const operator = { type: 'operator', id: 'ops-alice' };
    expect(items.map((i: { type: string }) => i.type)).toEqual([
      'attester.funded',
      'sanctions.listed',
      'issuer.added',
      'mfa.reset',
      'account.created',
    ]);
    expect(items).toEqual([
      expect.objectContaining({
        actor: operator,
        accountId: null,
        target: { type: 'attester', id: attester },
        data: expect.objectContaining({ amountEth: '0.01', txHash: funded.txHash }),
      }),
      expect.objectContaining({
        actor: operator,
        accountId: null,
        target: { type: 'wallet', id: listed },
        data: expect.objectContaining({ txHash: sanctioned.txHash }),
      }),
      expect.objectContaining({
        actor: operator,
        accountId: null,
        target: { type: 'issuer', id: 'acme-kyc' },
        data: expect.objectContaining({ publicKey: issuerKey }),
      }),
      expect.objectContaining({
        actor: operator,
        accountId: account.accountId,
        target: { type: 'user', id: account.userId },
      }),
      expect.objectContaining({ actor: operator, accountId: account.accountId }),
    ]);
    // Filters: one type, and a limit.
    const onlyIssuers = JSON.parse(await ok(['audit', 'list', '--type', 'issuer.added']));
    expect(onlyIssuers.items).toHaveLength(1);
    expect(JSON.parse(await ok(['audit', 'list', '--limit', '2'])).items).toHaveLength(2);
    expect((await cli(['audit', 'list', '--limit', 'all'])).code).toBe(2);
  });

  it('a change the database cannot take is still made, and says on stderr it is not recorded', async () => {
    const listed = Wallet.createRandom().address;
    const run = await cli(['sanctions', 'add', listed, '--rpc', chain.rpcUrl], {
      DATABASE_URL: `postgres://nobody@${new URL(await closedPortUrl()).host}/none`,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ wallet: listed, sanctioned: true });
    expect(run.stderr).toMatch(
      /^WARNING: sanctions.listed is done but NOT recorded in the operator audit \(operator audit: cannot open the database: .*\): run the command with the service's database settings/m,
    );
  });

  it('a key that does not own the oracle is refused in plain words, naming the owner (nothing recorded)', async () => {
    const before = JSON.parse(await ok(['audit', 'list', '--type', 'sanctions.listed'])).items;
    const run = await cli([
      'sanctions',
      'add',
      Wallet.createRandom().address,
      '--rpc',
      chain.rpcUrl,
      '--owner-key-file',
      funderKeyFile,
    ]);
    expect(run.code).toBe(2);
    const signer = chain.wallets[2].address;
    expect(run.stderr).toContain(
      `refused the write: NotOwner(${signer}). It is owned by ${chain.wallets[0].address}: pass that owner's key with --owner-key-file FILE.`,
    );
    expect(JSON.parse(await ok(['audit', 'list', '--type', 'sanctions.listed'])).items).toEqual(
      before,
    );
  });
});
