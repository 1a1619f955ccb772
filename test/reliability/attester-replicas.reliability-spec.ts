import { Interface, Wallet } from 'ethers';
import { AccountsService } from '../../src/accounts/accounts.service';
import { AttesterService } from '../../src/compliance/sessions/attester.service';
import { createTestApp, TestApp } from '../helpers/app';
import { login, uniqueRedisPrefix } from '../helpers/auth';
import { ComplianceDevnet, postActivateDemo, startComplianceDevnet } from '../helpers/compliance';
import { mineEvery } from '../helpers/devnet-mining';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { requireEnv } from './reliability-env';

const INSTANCES = 3;
const WALLETS = 50;
const BLOCK_MS = 1_000;
const ACTIVATE = new Interface(['function activate(address wallet, uint64 until)']);

/**
 * Three instances share PostgreSQL, Redis and one attester key, on a chain mining one block a
 * second: 50 wallets activated at once land as 50 transactions (one per wallet), no 5xx. Each
 * instance keeps its own nonce counter; a clash resyncs it from the node. The figures printed
 * (clashes per activation) are the measurement issue 29 asks for.
 */
describe(`${AttesterService.name}: ${INSTANCES} instances on one key`, () => {
  let chain: ComplianceDevnet;
  let db: TestDatabase;
  let apps: TestApp[] = [];
  let token: string;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    db = await createTestDatabase('postgres');
    const env = {
      ...chain.env,
      REDIS_URL: requireEnv('TEST_REDIS_URL'),
      REDIS_KEY_PREFIX: uniqueRedisPrefix('attester'),
    };
    for (let i = 0; i < INSTANCES; i++) apps.push(await createTestApp({ db, env }));
    const account = await apps[0].createAccount();
    await apps[0].app.get(AccountsService).setRateLimitOverride(account.accountId, 10_000);
    token = await login(apps[0], account);
  }, 120_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    apps = [];
    await db?.drop();
    await chain?.close();
  });

  it(`activates ${WALLETS} wallets concurrently: ${WALLETS} transactions on chain, no 5xx`, async () => {
    const attester = chain.wallets[0].address;
    const nonceBefore = await chain.provider.getTransactionCount(attester, 'latest');
    const wallets = Array.from({ length: WALLETS }, () => Wallet.createRandom().address);
    const mining = await mineEvery(chain.rpcUrl, BLOCK_MS);
    const started = Date.now();
    let results;
    try {
      results = await Promise.all(
        wallets.map((w, i) => postActivateDemo(apps[i % INSTANCES], token, w)),
      );
    } finally {
      await mining.stop();
    }
    const elapsed = Date.now() - started;

    expect(results.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    const hashes = results.map((r) => r.body.txHash as string);
    expect(new Set(hashes).size).toBe(WALLETS);
    // One transaction per wallet: each answered hash activates its own wallet, and the key's
    // nonce moved by exactly the number of wallets (no transaction mined twice or in vain).
    const activated = await Promise.all(
      hashes.map(async (hash) => {
        const tx = (await chain.provider.getTransaction(hash))!;
        return (ACTIVATE.decodeFunctionData('activate', tx.data)[0] as string).toLowerCase();
      }),
    );
    expect(activated).toEqual(wallets.map((w) => w.toLowerCase()));
    expect(await chain.provider.getTransactionCount(attester, 'latest')).toBe(
      nonceBefore + WALLETS,
    );
    for (const w of wallets) expect(await chain.isActive(w)).toBe(true);

    const stats = await Promise.all(
      apps.map(async (app) => (await app.app.get(AttesterService).status()).stats),
    );
    const total = (key: keyof (typeof stats)[number]) => stats.reduce((n, s) => n + s[key], 0);
    const clashes = total('nonceClashes');
    process.stdout.write(
      `${WALLETS} activations over ${INSTANCES} instances, one block per ${BLOCK_MS} ms: ` +
        `${elapsed} ms, ${clashes} nonce clashes (${(clashes / WALLETS).toFixed(2)} per activation), ` +
        `${total('resent')} resent, ${total('replaced')} replaced, ${total('sent')} sends\n`,
    );
    // Issue 29: past one retry per activation on average, serialise per key across instances.
    expect(clashes).toBeLessThanOrEqual(WALLETS);
    expect(total('resent')).toBe(0);
  }, 120_000);
});
