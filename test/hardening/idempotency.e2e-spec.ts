import { Wallet } from 'ethers';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { IdempotencyRecord } from '../../src/auth/idempotency/idempotency-record.entity';
import { UsersService } from '../../src/auth/users/users.service';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  ComplianceDevnet,
  CredentialKit,
  openCredentialKit,
  startComplianceDevnet,
} from '../helpers/compliance';

/** Idempotency-Key and the fresh-session answer of demo activation (issue 16: 4). */
describe('Side effects that must not repeat', () => {
  let chain: ComplianceDevnet;
  let t: TestApp;
  let token: string;
  let kit: CredentialKit;

  beforeAll(async () => {
    chain = await startComplianceDevnet();
    t = await createTestApp({ env: chain.env });
    token = await login(t, await t.createAccount());
    kit = await openCredentialKit(t, chain);
  }, 120_000);
  afterAll(async () => {
    await kit?.close();
    await t?.close();
    await chain?.close();
  });

  const post = (path: string, key: string | undefined, body: object, bearer = token) => {
    const r = request(t.server).post(path).set('Authorization', `Bearer ${bearer}`);
    return (key ? r.set('Idempotency-Key', key) : r).send(body);
  };
  const attesterNonce = () => chain.provider.getTransactionCount(chain.wallets[0].address);
  const listKeys = async () =>
    (await request(t.server).get('/api/v1/api-keys').set('Authorization', `Bearer ${token}`)).body
      .items as Array<{ id: string }>;

  it('replays POST /api/v1/api-keys: same status and body, one key; another body gets 422', async () => {
    const key = `create-${Date.now()}`;
    const body = { name: 'ci', scopes: ['usage:read'] };
    const first = await post('/api/v1/api-keys', key, body).expect(201);
    const again = await post('/api/v1/api-keys', key, body).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await listKeys()).filter((k) => k.id === first.body.id)).toHaveLength(1);
    // The stored response is sealed: the new key's secret is not in the database in clear.
    const stored = await t.app
      .get(DataSource)
      .getRepository(IdempotencyRecord)
      .findBy({ idempotencyKey: key });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(first.body.key);

    const other = await post('/api/v1/api-keys', key, { ...body, name: 'other' }).expect(422);
    expect(other.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', phase: 'validation' });
    // Keys are per account: another account may use the same key string for its own request.
    const otherToken = await login(t, await t.createAccount());
    const theirs = await post('/api/v1/api-keys', key, body, otherToken).expect(201);
    expect(theirs.body.id).not.toBe(first.body.id);
  });

  it("never replays one caller's response to another member of the account", async () => {
    // Security review: records were per account, so a developer replaying an owner's key and
    // body got the owner's new API key secret back.
    const owner = await t.createAccount();
    const ownerToken = await login(t, owner);
    const users = t.app.get(UsersService);
    const dev = await users.build(
      owner.accountId,
      `dev-${owner.email}`,
      owner.password,
      'developer',
    );
    await users.insert(dev);
    const developer: TestAccount = { ...owner, userId: dev.id, email: dev.email };
    const developerToken = await login(t, developer);

    const key = `shared-${Date.now()}`;
    const body = { name: 'deploy', scopes: ['usage:read'] };
    const mine = await post('/api/v1/api-keys', key, body, ownerToken).expect(201);
    const theirs = await post('/api/v1/api-keys', key, body, developerToken).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.key).not.toBe(mine.body.key);
    // Each caller still gets their own replay, from any of their logins.
    const ownerAgain = await post('/api/v1/api-keys', key, body, await login(t, owner)).expect(201);
    expect(ownerAgain.headers['idempotent-replayed']).toBe('true');
    expect(ownerAgain.body).toEqual(mine.body);
    const developerAgain = await post('/api/v1/api-keys', key, body, developerToken).expect(201);
    expect(developerAgain.body).toEqual(theirs.body);
  });

  it('runs concurrent duplicates once', async () => {
    const before = (await listKeys()).length;
    const key = `burst-${Date.now()}`;
    const body = { name: 'burst', scopes: ['usage:read'] };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/v1/api-keys', key, body)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await listKeys()).length).toBe(before + 1);
  });

  it('replays register across both path forms, and refuses a malformed key', async () => {
    const key = `register-${Date.now()}`;
    const body = { walletAddress: Wallet.createRandom().address };
    const first = await post('/onboarding/register', key, body).expect(200);
    const again = await post('/api/v1/onboarding/register', key, body).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const bad = await post('/onboarding/register', 'bad key with spaces', body).expect(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_PARAMS', phase: 'validation' });
  });

  it('answers a fresh session without a new attester transaction, and replays an activation', async () => {
    const wallet = Wallet.createRandom().address;
    const activate = (key?: string) =>
      post('/onboarding/activate-session-demo', key, { walletAddress: wallet });

    const nonce0 = await attesterNonce();
    const first = await activate().expect(200);
    expect(first.body).toMatchObject({ alreadyActive: false, walletBound: true });
    expect(first.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await attesterNonce()).toBe(nonce0 + 1);

    const second = await activate().expect(200);
    expect(second.body).toMatchObject({
      walletAddress: wallet,
      txHash: null,
      blockNumber: null,
      alreadyActive: true,
      activeUntilUnix: first.body.activeUntilUnix,
    });
    expect(await attesterNonce()).toBe(nonce0 + 1);

    const key = `activate-${Date.now()}`;
    const keyed = await activate(key).expect(200);
    const replayed = await activate(key).expect(200);
    expect(replayed.body).toEqual(keyed.body);
    expect(await attesterNonce()).toBe(nonce0 + 1);
  });

  it('replays /verify across both path forms instead of answering PROOF_REPLAYED', async () => {
    const wallet = Wallet.createRandom().address;
    const body = await kit.prove(token, await kit.issue(wallet));
    const key = `verify-${Date.now()}`;
    const first = await post('/verify', key, body).expect(200);
    const replayed = await post('/api/v1/verify', key, body).expect(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(first.body);
    // Without the key, the same proof is a replay of its (single-use) challenge.
    expect((await post('/verify', undefined, body).expect(409)).body.code).toBe('PROOF_REPLAYED');
  });
});
