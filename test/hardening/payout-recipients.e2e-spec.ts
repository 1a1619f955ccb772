/**
 * Issue 30 (1): no built transaction pays out where tokens are lost or left for anyone to take.
 * A table over every operation and every class of refused address, against the real network
 * configuration; then the reported exploit on the devnet: fees collected to ADDRESS_THIS (0x…02)
 * stayed in the PositionManager, where a stranger swept them. Now that build is refused, and a
 * collect to another wallet still executes and pays that wallet.
 */
import request from 'supertest';
import { login } from '../helpers/auth';
import { mintBody, postLiquidity, postSwap, useDefiSuite } from '../helpers/defi';

type Body = Record<string, unknown>;
interface FieldDetail {
  field: string;
  constraint: string;
  message: string;
}

const ZERO = '0x0000000000000000000000000000000000000000';

describe('Payout recipients (issue 30)', () => {
  const suite = useDefiSuite();
  let token: string;
  let refused: Array<[string, string]>;

  beforeAll(async () => {
    // Enterprise: the table sends ~150 requests, past the free plan's 120 a minute.
    token = await login(suite.t, await suite.t.createAccount({ plan: 'enterprise' }));
    const config = (
      await request(suite.t.server)
        .get('/api/v1/defi/config')
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body;
    const contracts = Object.entries(config.contracts as Record<string, string>);
    const tokens = (config.tokens as Array<{ symbol: string; address: string; native?: boolean }>)
      .filter((t) => !t.native)
      .map((t): [string, string] => [`token ${t.symbol}`, t.address]);
    const deprecatedTokens = (config.deprecated as Array<Body>)
      .filter((d) => d.kind === 'token')
      .map((d): [string, string] => [`deprecated token ${String(d.label)}`, String(d.address)]);
    refused = [
      ['zero address', ZERO],
      ['v4 MSG_SENDER marker', '0x0000000000000000000000000000000000000001'],
      ['v4 ADDRESS_THIS marker', '0x0000000000000000000000000000000000000002'],
      ['precompile (Base P256VERIFY, 0x100)', '0x0000000000000000000000000000000000000100'],
      ['top of the reserved range', '0x000000000000000000000000000000000000ffff'],
      ...contracts.map(([name, address]): [string, string] => [`contract ${name}`, address]),
      ...tokens,
      ...deprecatedTokens,
    ];
    // Every protocol contract the issue names is in the table.
    expect(contracts.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'poolManager',
        'positionManager',
        'universalRouter',
        'permit2',
        'complianceHook',
        'complianceRegistry',
      ]),
    );
    expect(tokens.length + deprecatedTokens.length).toBeGreaterThanOrEqual(3);
  });

  const wallet = () => suite.chain.wallets[6].address;
  /** Every operation that builds a transaction, with the body for a payout to `to` in `field`. */
  const operations: Array<{
    name: string;
    path: string;
    field: 'userAddress' | 'recipient';
    body: (to: string) => Body;
  }> = [
    {
      name: 'swap (output to the signer)',
      path: 'swap',
      field: 'userAddress',
      body: (to) => ({
        tokenIn: suite.WETH,
        tokenOut: suite.TUSDC,
        amount: '1000000',
        userAddress: to,
      }),
    },
    {
      name: 'mint (NFT to the owner)',
      path: 'liquidity',
      field: 'userAddress',
      body: (to) => mintBody(suite, to),
    },
    {
      name: 'increase',
      path: 'liquidity/increase',
      field: 'userAddress',
      body: (to) => ({ tokenId: '1', amount0: '1000', amount1: '1000', userAddress: to }),
    },
    {
      name: 'decrease (tokens to the owner)',
      path: 'liquidity/decrease',
      field: 'userAddress',
      body: (to) => ({ tokenId: '1', liquidityBps: 5000, userAddress: to }),
    },
    {
      name: 'decrease + burn',
      path: 'liquidity/decrease',
      field: 'userAddress',
      body: (to) => ({ tokenId: '1', liquidityBps: 10_000, burn: true, userAddress: to }),
    },
    {
      name: 'collect (fees to the owner)',
      path: 'liquidity/collect',
      field: 'userAddress',
      body: (to) => ({ tokenId: '1', userAddress: to }),
    },
    {
      name: 'collect (fees to a recipient)',
      path: 'liquidity/collect',
      field: 'recipient',
      body: (to) => ({ tokenId: '1', userAddress: wallet(), recipient: to }),
    },
  ];

  const build = (path: string, body: Body, query = '') =>
    request(suite.t.server)
      .post(`/api/v1/defi/${path}${query}`)
      .set('Authorization', `Bearer ${token}`)
      .send(body);

  it.each(operations)(
    '$name: every refused address class is 400 with details[].field = $field',
    async ({ path, field, body }) => {
      expect(refused.length).toBeGreaterThanOrEqual(17);
      for (const [label, address] of refused) {
        // buildOnly=true too: the rule does not bend for a caller who accepts a revert.
        for (const query of ['', '?buildOnly=true']) {
          const res = await build(path, body(address), query);
          const fields = ((res.body.details ?? []) as FieldDetail[]).map((d) => d.field);
          // A wallet field never takes the zero address at all (validation, INVALID_ADDRESS);
          // every other class, and the zero address as a recipient, is the payout rule's.
          const code =
            field === 'userAddress' && address === ZERO ? 'INVALID_ADDRESS' : 'INVALID_PARAMS';
          expect({ label, query, status: res.status, code: res.body.code, fields }).toEqual({
            label,
            query,
            status: 400,
            code,
            fields: [field],
          });
          expect(res.body.phase).toBe('validation');
          if (code === 'INVALID_PARAMS') {
            expect(res.body.details[0]).toMatchObject({ constraint: 'payoutRecipient' });
            expect(res.body.hint).toMatch(/wallet the user controls/);
          }
        }
      }
    },
  );

  it('the reported exploit: fees to ADDRESS_THIS are refused, and a collect to another wallet pays that wallet', async () => {
    const { chain, t, WETH, TUSDC } = suite;
    const lp = chain.wallets[7];
    const trader = chain.wallets[8];
    const recipient = chain.wallets[9].address;
    await chain.activate(lp.address);
    await chain.activate(trader.address);

    // A position, and a swap through it that leaves fees on it.
    const body = mintBody(suite, lp.address);
    const first = await postLiquidity(t, token, body).expect(200);
    for (const approval of first.body.approvals)
      expect((await chain.send(lp, approval.transaction)).status).toBe(1);
    const mint = await postLiquidity(t, token, body).expect(200);
    expect((await chain.send(lp, mint.body.transaction)).status).toBe(1);
    const tokenId = mint.body.expectedTokenId as string;
    const swapBody = {
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: (10n ** 17n).toString(),
      userAddress: trader.address,
    };
    const quoted = await postSwap(t, token, swapBody).expect(200);
    for (const approval of quoted.body.approvals) await chain.send(trader, approval.transaction);
    const swap = await postSwap(t, token, swapBody).expect(200);
    expect((await chain.send(trader, swap.body.transaction)).status).toBe(1);
    const fees = (
      await request(t.server)
        .get(`/api/v1/defi/positions/${tokenId}`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body.uncollectedFees;
    expect(BigInt(fees.amount0)).toBeGreaterThan(0n);

    const markerRes = await build('liquidity/collect', {
      tokenId,
      userAddress: lp.address,
      recipient: '0x0000000000000000000000000000000000000002',
    }).expect(400);
    expect(markerRes.body.message).toContain('ADDRESS_THIS');

    const before = await chain.balanceOf(WETH, recipient);
    const managerBefore = await chain.balanceOf(WETH, chain.deployment.contracts.positionManager);
    const collect = await build('liquidity/collect', {
      tokenId,
      userAddress: lp.address,
      recipient,
    }).expect(200);
    expect(collect.body).toMatchObject({ recipient, simulation: { ok: true } });
    expect((await chain.send(lp, collect.body.transaction)).status).toBe(1);
    expect((await chain.balanceOf(WETH, recipient)) - before).toBe(BigInt(fees.amount0));
    // Nothing was left in the PositionManager for anyone to sweep.
    expect(await chain.balanceOf(WETH, chain.deployment.contracts.positionManager)).toBe(
      managerBefore,
    );
  });

  it("the rule is the network's, not an account's: another account gets the same refusal, naming the contract", async () => {
    const other = await login(suite.t, await suite.t.createAccount());
    const res = await request(suite.t.server)
      .post('/api/v1/defi/liquidity/collect')
      .set('Authorization', `Bearer ${other}`)
      .send({
        tokenId: '1',
        userAddress: wallet(),
        recipient: suite.chain.deployment.contracts.poolManager,
      })
      .expect(400);
    expect(res.body.details).toEqual([
      expect.objectContaining({ field: 'recipient', constraint: 'payoutRecipient' }),
    ]);
    expect(res.body.message).toContain('PoolManager');
  });
});
