import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { bindWallet } from '../helpers/defi';
import { WalletsService } from '../../src/compliance/wallets/wallets.service';

const ALICE_WALLETS = [
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
];
const BOB_WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

/** GET /api/v1/wallets: the dashboard's list of the account's wallets (JWT only). */
describe('WalletsController (GET /api/v1/wallets)', () => {
  let t: TestApp;
  let aliceToken: string;
  let bobToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    const [alice, bob] = [await t.createAccount(), await t.createAccount()];
    [aliceToken, bobToken] = [await login(t, alice), await login(t, bob)];
    for (const address of ALICE_WALLETS) await bindWallet(t, address, alice.accountId);
    await bindWallet(t, BOB_WALLET, bob.accountId);
  });
  afterAll(() => t?.close());

  const list = (token: string) =>
    request(t.server).get('/api/v1/wallets').set('Authorization', `Bearer ${token}`);

  it("lists the caller's wallets only, checksummed, with when each was bound", async () => {
    const res = await list(aliceToken).expect(200);
    expect(res.body.authMethod).toBe('jwt');
    expect(res.body.items.map((w: { address: string }) => w.address).sort()).toEqual(
      [...ALICE_WALLETS].sort(),
    );
    for (const w of res.body.items) expect(Date.parse(w.boundAt)).not.toBeNaN();
    expect((await list(bobToken).expect(200)).body.items).toEqual([
      { address: BOB_WALLET, boundAt: expect.any(String) },
    ]);
  });

  it('an account without wallets gets an empty list', async () => {
    const carol = await t.createAccount();
    expect((await list(await login(t, carol)).expect(200)).body.items).toEqual([]);
  });

  it('refuses API keys (dashboard login only) and anonymous callers, in the envelope', async () => {
    const key = await createApiKey(t, aliceToken, ['onboarding:write', 'defi:preflight']);
    const byKey = await request(t.server).get('/api/v1/wallets').set('X-API-Key', key.key);
    expect(byKey.status).toBe(403);
    expect(byKey.body).toMatchObject({ code: 'API_KEY_SCOPE_MISSING', phase: 'auth' });
    const anonymous = await request(t.server).get('/api/v1/wallets').expect(401);
    expect(anonymous.body.code).toBe('API_KEY_MISSING');
  });

  it('ownerOf (the lean read every build makes) agrees with findByAddress, bound or not', async () => {
    const wallets = t.app.get(WalletsService);
    const unbound = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
    for (const address of [...ALICE_WALLETS, BOB_WALLET, unbound]) {
      const row = await wallets.findByAddress(address);
      expect(await wallets.ownerOf(address)).toBe(row?.accountId ?? null);
    }
    expect(await wallets.ownerOf(BOB_WALLET)).not.toBeNull();
    expect(await wallets.ownerOf(unbound)).toBeNull();
  });
});
