/**
 * Reading compliance receipts (issue 56): by id, listed by wallet and period with an `after`
 * cursor, exported as NDJSON streamed page by page; a JWT member or an API key with
 * `receipts:read`; another account's receipts do not exist for the caller; a rotation of the
 * signing key keeps older receipts verifiable through the JWKS. Builds here are buildOnly for
 * wallets without a session: their receipts say what was not simulated and why.
 */
import request from 'supertest';
import { DataSource } from 'typeorm';
import { generateEs256Key } from '../../src/config/es256-key';
import { receiptExportStream } from '../../src/receipts/export/receipt-export';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { DefiDevnet, startDefiDevnet } from '../helpers/defi';
import { getReceipt, jwksOf, verifyJws } from '../helpers/receipts';

describe('Compliance receipts: reading, listing, exporting, keys', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let WETH: string;
  let TUSDC: string;

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({ env: { CHAIN_RPC_URL: chain.rpcUrl } });
    token = await login(t, await t.createAccount());
    otherToken = await login(t, await t.createAccount());
    ({ WETH, tUSDC: TUSDC } = chain.deployment.tokens);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  /** A buildOnly swap for a wallet without a session: its receiptId. */
  async function buildOnly(app: TestApp, wallet: string, amount = '1000000000000000') {
    const res = await request(app.server)
      .post('/api/v1/defi/swap?buildOnly=true')
      .set('Authorization', `Bearer ${token}`)
      .send({ tokenIn: WETH, tokenOut: TUSDC, amount, userAddress: wallet })
      .expect(200);
    return res.body.receiptId as string;
  }

  const list = (query: Record<string, string | number>, bearer = token) =>
    request(t.server)
      .get('/api/v1/compliance/receipts')
      .query(query)
      .set('Authorization', `Bearer ${bearer}`);

  it('a build that could only revert says so: simulation skipped, the session rule failed', async () => {
    const id = await buildOnly(t, chain.wallets[1].address);
    const { receipt } = await getReceipt(t, token, id);
    expect(receipt.simulation).toEqual({
      method: 'eth_call+stateOverride',
      blockNumber: receipt.sanctions.blockNumber,
      status: 'skipped',
      skipped: 'SESSION_NOT_ACTIVE',
      gasUsed: null,
      balanceChanges: [],
    });
    expect(receipt.session).toEqual({ active: false, activeUntil: null });
    expect(receipt.sources).toEqual([]);
    expect(receipt.policy.rules).toContainEqual(
      expect.objectContaining({ rule: 'session', result: 'fail', at: 'build' }),
    );
  });

  it('reads with a JWT or a key holding receipts:read; other keys 403, other accounts 404, bad ids 400', async () => {
    const id = await buildOnly(t, chain.wallets[2].address);
    const reader = await createApiKey(t, token, ['receipts:read']);
    const builder = await createApiKey(t, token, ['defi:swap']);
    const byKey = await request(t.server)
      .get(`/api/v1/compliance/receipts/${id}`)
      .set('X-API-Key', reader.key)
      .expect(200);
    expect(byKey.body).toMatchObject({ authMethod: 'api_key', id });
    const refused = await request(t.server)
      .get(`/api/v1/compliance/receipts/${id}`)
      .set('X-API-Key', builder.key)
      .expect(403);
    expect(refused.body.code).toBe('API_KEY_SCOPE_MISSING');
    await request(t.server)
      .get('/api/v1/compliance/receipts/export')
      .set('X-API-Key', builder.key)
      .expect(403);
    const foreign = await request(t.server)
      .get(`/api/v1/compliance/receipts/${id}`)
      .set('Authorization', `Bearer ${otherToken}`)
      .expect(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect((await list({}, otherToken).expect(200)).body.items).toEqual([]);
    const bad = await request(t.server)
      .get('/api/v1/compliance/receipts/not-a-receipt')
      .set('Authorization', `Bearer ${token}`)
      .expect(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_PARAMS', details: [{ field: 'id' }] });
    await request(t.server).get(`/api/v1/compliance/receipts/${id}`).expect(401);
  });

  it('lists a wallet oldest first, page by page with after; from/to bound it; an unknown after is 400', async () => {
    const wallet = chain.wallets[3].address;
    const started = new Date();
    const ids = [];
    for (const amount of ['1000000000000000', '2000000000000000', '3000000000000000'])
      ids.push(await buildOnly(t, wallet, amount));
    await buildOnly(t, chain.wallets[4].address);
    const first = await list({ wallet: wallet.toLowerCase(), limit: 2 }).expect(200);
    expect(first.body.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 2));
    expect(first.body.nextAfter).toBe(ids[1]);
    expect(first.body.items[0].receipt.request.amount).toBe('1000000000000000');
    const second = await list({ wallet, limit: 2, after: first.body.nextAfter }).expect(200);
    expect(second.body.items.map((i: { id: string }) => i.id)).toEqual([ids[2]]);
    expect(second.body.nextAfter).toBeNull();
    // The period: everything of the wallet since `started`, nothing before it.
    const since = await list({ wallet, from: started.toISOString() }).expect(200);
    expect(since.body.items).toHaveLength(3);
    expect((await list({ wallet, to: started.toISOString() }).expect(200)).body.items).toHaveLength(
      0,
    );
    const unknown = await list({ after: '01964b1e-7c3a-7d21-9f0e-5a1b2c3d4e5f' }).expect(400);
    expect(unknown.body).toMatchObject({ code: 'INVALID_PARAMS', details: [{ field: 'after' }] });
    const badWallet = await list({ wallet: '0x1234' }).expect(400);
    expect(badWallet.body.details[0].field).toBe('wallet');
    // The export of the same wallet and period: the same receipts, one a line.
    const exported = await request(t.server)
      .get('/api/v1/compliance/receipts/export')
      .query({ wallet, from: started.toISOString() })
      .set('Authorization', `Bearer ${token}`)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      })
      .expect(200);
    expect(exported.headers['content-disposition']).toMatch(/attachment/);
    const lines = (exported.body as string)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(ids);
    expect(lines[0]).toEqual({ ...first.body.items[0] });
  });

  it('exports in keyset pages, reading the next page only once the last one was taken', async () => {
    const accountRows = await t.app
      .get(DataSource)
      .query('SELECT account_id FROM compliance_receipts LIMIT 1');
    const accountId = String(accountRows[0].account_id);
    const dataSource = t.app.get(DataSource);
    let queries = 0;
    const manager = new Proxy(dataSource.manager, {
      get(target, key, receiver) {
        if (key === 'query')
          return (...args: Parameters<typeof target.query>) => {
            queries += 1;
            return target.query(...args);
          };
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const all = (await dataSource.query(
      `SELECT id FROM compliance_receipts WHERE account_id = '${accountId}' ORDER BY issued_ms, seq`,
    )) as Array<{ id: string }>;
    expect(all.length).toBeGreaterThanOrEqual(5);
    // Pages of one row: a consumer that takes nothing leaves the stream waiting after ~one page.
    const stream = receiptExportStream(manager, { accountId }, 1);
    const firstChunk = await new Promise<string>((resolve) =>
      stream.once('readable', () => resolve(String(stream.read()))),
    );
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(queries).toBeLessThanOrEqual(3);
    const rest: string[] = [firstChunk];
    for await (const chunk of stream) rest.push(String(chunk));
    const ids = rest
      .join('')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(all.map((row) => row.id));
    expect(queries).toBe(all.length + 1); // one page a row, and the empty one that ends it
  });

  it('keeps receipts verifiable after a key rotation: the JWKS lists the old key after the new one', async () => {
    const before = await buildOnly(t, chain.wallets[5].address);
    const oldJwks = await jwksOf(t);
    expect(oldJwks.keys).toHaveLength(1);
    const next = generateEs256Key();
    const rotated = await createTestApp({
      db: t.db,
      env: { CHAIN_RPC_URL: chain.rpcUrl, RECEIPT_SIGNING_KEY: next.pkcs8 },
    });
    try {
      const jwks = await jwksOf(rotated);
      expect(jwks.keys.map((k) => k.kid)).toEqual([next.kid, oldJwks.keys[0].kid]);
      expect(jwks.keys[0]).toEqual({ ...next.publicJwk, kid: next.kid, alg: 'ES256', use: 'sig' });
      // The receipt signed before the rotation still verifies against the new JWKS...
      const old = await getReceipt(rotated, token, before);
      expect((await verifyJws(old.jws, jwks)).protectedHeader.kid).toBe(oldJwks.keys[0].kid);
      // ...and one signed after it names the new key.
      const after = await getReceipt(
        rotated,
        token,
        await buildOnly(rotated, chain.wallets[5].address),
      );
      expect((await verifyJws(after.jws, jwks)).protectedHeader.kid).toBe(next.kid);
      const res = await request(rotated.server).get('/.well-known/jwks.json').expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
    } finally {
      await rotated.close();
    }
  });
});
