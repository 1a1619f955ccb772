import request from 'supertest';
import { createApiKey } from '../helpers/auth';
import { useDefiSuite } from '../helpers/defi';

/**
 * Issue 53 item 7: each hint leads to the next step. Every case follows its hint as a newcomer
 * would (only what the hint says) and gets past the refusal.
 */
describe('Hints that lead to the next step', () => {
  const s = useDefiSuite();
  const withKey = (key: string) => ({ 'X-API-Key': key });

  it('INVALID_ADDRESS for a token symbol says symbols are not taken and where the addresses are', async () => {
    const { key } = await createApiKey(s.t, s.token, ['defi:swap', 'defi:preflight']);
    const user = s.chain.wallets[2].address;
    const body = {
      tokenIn: 'WETH',
      tokenOut: 'tUSDC',
      amount: '1000000000000000',
      userAddress: user,
    };
    const refused = await request(s.t.server)
      .post('/api/v1/defi/swap?buildOnly=true')
      .set(withKey(key))
      .send(body)
      .expect(400);
    expect(refused.body).toMatchObject({
      code: 'INVALID_ADDRESS',
      details: [
        { field: 'tokenIn', symbol: 'WETH' },
        { field: 'tokenOut', symbol: 'tUSDC' },
      ],
    });
    expect(refused.body.hint).toContain("send the token's address, not its symbol (WETH)");
    expect(refused.body.hint).toContain('GET /api/v1/defi/config');
    // Following it: the config's addresses build.
    const config = await request(s.t.server)
      .get('/api/v1/defi/config')
      .set(withKey(key))
      .expect(200);
    const address = (symbol: string) =>
      (config.body.tokens as Array<{ symbol: string; address: string }>).find(
        (t) => t.symbol === symbol,
      )!.address;
    await request(s.t.server)
      .post('/api/v1/defi/swap?buildOnly=true')
      .set(withKey(key))
      .send({ ...body, tokenIn: address('WETH'), tokenOut: address('tUSDC') })
      .expect(200);
  });

  it('SESSION_NOT_ACTIVE names every way to open a session, attestations included', async () => {
    const user = s.chain.wallets[3].address;
    const swap = () =>
      request(s.t.server).post('/api/v1/defi/swap').set('Authorization', `Bearer ${s.token}`).send({
        tokenIn: s.WETH,
        tokenOut: s.TUSDC,
        amount: '1000000000000000',
        userAddress: user,
      });
    const refused = await swap().expect(412);
    expect(refused.body.code).toBe('SESSION_NOT_ACTIVE');
    for (const route of [
      'POST /onboarding/activate-session-attestation',
      'POST /verify',
      'POST /onboarding/activate-session-demo',
      'GET /defi/preflight/:address',
      'buildOnly=true',
    ])
      expect(refused.body.hint).toContain(route);
    await request(s.t.server)
      .post('/onboarding/activate-session-demo')
      .set('Authorization', `Bearer ${s.token}`)
      .send({ walletAddress: user })
      .expect(200);
    await swap().expect(200);
  });

  it("a dashboard-only route refused to an API key says it needs a member's dashboard login", async () => {
    const { key } = await createApiKey(s.t, s.token, [
      'compliance:verify',
      'onboarding:write',
      'usage:read',
    ]);
    const policy = { sources: { mode: 'any', names: [] }, countries: {}, minSessionSeconds: 0 };
    const refused = await request(s.t.server)
      .put('/api/v1/compliance/policy')
      .set(withKey(key))
      .send(policy)
      .expect(403);
    expect(refused.body).toMatchObject({
      code: 'API_KEY_SCOPE_MISSING',
      message:
        "PUT /api/v1/compliance/policy needs a member's dashboard login (JWT), not an API key",
      details: [{ requires: 'jwt', route: 'PUT /api/v1/compliance/policy' }],
    });
    expect(refused.body.hint).toContain('POST /auth/login');
    expect(refused.body.hint).not.toMatch(/key management/i);
    await request(s.t.server)
      .put('/api/v1/compliance/policy')
      .set('Authorization', `Bearer ${s.token}`)
      .send(policy)
      .expect(200);
  });

  it('API_KEY_SCOPE_MISSING gives the PATCH that adds the scope to this very key', async () => {
    const { id, key } = await createApiKey(s.t, s.token, ['usage:read']);
    const preflight = () =>
      request(s.t.server)
        .get(`/api/v1/defi/preflight/${s.chain.wallets[4].address}`)
        .set(withKey(key));
    const refused = await preflight().expect(403);
    expect(refused.body).toMatchObject({
      code: 'API_KEY_SCOPE_MISSING',
      details: [{ requiredScope: 'defi:preflight', keyScopes: ['usage:read'], keyId: id }],
    });
    const patch = /PATCH (\/api\/v1\/api-keys\/[\w-]+) (\{.*?\}) as a member/.exec(
      refused.body.hint,
    );
    expect(patch?.[1]).toBe(`/api/v1/api-keys/${id}`);
    expect(JSON.parse(patch![2])).toEqual({ scopes: ['usage:read', 'defi:preflight'] });
    await request(s.t.server)
      .patch(patch![1])
      .set('Authorization', `Bearer ${s.token}`)
      .send(JSON.parse(patch![2]))
      .expect(200);
    await preflight().expect(200);
  });
});
