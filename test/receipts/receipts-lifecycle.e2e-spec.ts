/**
 * A compliance receipt for every trade (issue 56), end to end on the devnet: a one-pool swap, a
 * two-hop swap and a mint each answer a receiptId; the receipt verifies against the JWKS with
 * `jose`; its simulated balance changes equal what the mined transaction did (the input exactly,
 * the output within the slippage bound); after relay and mining the receipt shows its execution,
 * signed apart and chained by digest; the day's export holds it; one byte altered fails
 * verification. A transaction the wallet sends itself gets its execution from the chain watch.
 */
import type { Wallet } from 'ethers';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import {
  DefiDevnet,
  mintBody,
  relayUntilConfirmed,
  signBuilt,
  startDefiDevnet,
} from '../helpers/defi';
import {
  alteredByOneByte,
  BalanceChange,
  digestOf,
  ETH,
  getReceipt,
  jwksOf,
  realChanges,
  ReceiptBody,
  verifyJws,
  waitForExecution,
} from '../helpers/receipts';

describe('Compliance receipts: build, sign, simulate, execute (devnet)', () => {
  let chain: DefiDevnet;
  let t: TestApp;
  let token: string;
  let WETH: string;
  let TUSDC: string;
  let TWBTC: string;

  beforeAll(async () => {
    chain = await startDefiDevnet();
    t = await createTestApp({
      env: {
        CHAIN_RPC_URL: chain.rpcUrl,
        WEBHOOK_SCAN_INTERVAL_MS: '200',
        RECEIPT_WATCH_INTERVAL_MS: '200',
      },
    });
    token = await login(t, await t.createAccount());
    ({ WETH, tUSDC: TUSDC, tWBTC: TWBTC } = chain.deployment.tokens);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  const auth = (r: request.Test) => r.set('Authorization', `Bearer ${token}`);

  /** Builds, relays the approvals it lists (each with its own receipt), builds again. */
  async function readyBuild(user: Wallet, path: string, body: object) {
    const first = await auth(request(t.server).post(path)).send(body).expect(200);
    expect(first.body.receiptId).toEqual(expect.any(String));
    if (first.body.approvals.length > 0) {
      // Approvals pending: no estimate, but the receipt's simulation ran them, then the trade.
      const { receipt } = await getReceipt(t, token, first.body.receiptId);
      expect(receipt.approvals).toEqual(first.body.calls.slice(0, -1));
      expect(receipt.simulation.status).toBe('success');
      expect(receipt.simulation.balanceChanges.length).toBeGreaterThan(0);
    }
    for (const approval of first.body.approvals)
      await relayUntilConfirmed(t, token, await signBuilt(user, approval.transaction));
    const built = await auth(request(t.server).post(path)).send(body).expect(200);
    expect(built.body.approvals).toEqual([]);
    expect(built.body.receiptId).not.toBe(first.body.receiptId);
    return built.body;
  }

  /** The receipt as GET answers it, verified: its payload is the document without execution. */
  async function verifiedReceipt(id: string): Promise<ReceiptBody> {
    const body = await getReceipt(t, token, id);
    const jwks = await jwksOf(t);
    const { payload, protectedHeader } = await verifyJws(body.jws, jwks);
    expect(protectedHeader).toEqual({
      alg: 'ES256',
      kid: jwks.keys[0].kid,
      typ: 'compliance-receipt',
    });
    const { execution, ...signed } = body.receipt;
    expect(payload).toEqual(signed);
    if (execution === undefined) expect(body.executionJws).toBeNull();
    await expect(verifyJws(alteredByOneByte(body.jws), jwks)).rejects.toThrow(
      /signature verification failed/,
    );
    return body;
  }

  /**
   * Relays the built transaction, reading the wallet's balances around it; then the receipt's
   * execution must show exactly those changes, signed, chained to the receipt, within slippage.
   */
  async function relayAndCheck(
    user: Wallet,
    built: { transaction: never; receiptId: string },
    tokens: string[],
    // The transaction's gas as simulated is the mined gasUsed (these earn no refund).
    gasCheck = (simulated: bigint, mined: bigint) => expect(simulated).toBe(mined),
  ) {
    const before = await verifiedReceipt(built.receiptId);
    const { changes, receipt: mined } = await realChanges(
      chain.provider,
      user.address,
      tokens,
      async () =>
        (await relayUntilConfirmed(t, token, await signBuilt(user, built.transaction)))
          .txHash as string,
    );
    const after = await waitForExecution(t, token, built.receiptId);
    expect(after.jws).toBe(before.jws); // the receipt as issued never changes
    const jwks = await jwksOf(t);
    const { payload, protectedHeader } = await verifyJws(after.executionJws!, jwks);
    expect(protectedHeader.typ).toBe('compliance-receipt-execution');
    expect(payload).toEqual({
      receiptId: built.receiptId,
      receiptDigest: digestOf(after.jws),
      execution: after.receipt.execution,
      observedAt: expect.any(String),
    });
    await expect(verifyJws(alteredByOneByte(after.executionJws!), jwks)).rejects.toThrow();
    expect(after.receipt.execution).toEqual({
      txHash: mined.hash,
      blockNumber: mined.blockNumber,
      status: 'success',
      balanceChanges: changes,
      gasUsed: mined.gasUsed.toString(),
      relayed: true,
      withinSlippage: true,
      deviations: [],
    });
    gasCheck(BigInt(before.receipt.simulation.gasUsed), mined.gasUsed);
    return { receipt: after, changes };
  }

  const deltaOf = (changes: BalanceChange[], token: string) =>
    BigInt(changes.find((c) => c.token.toLowerCase() === token.toLowerCase())?.delta ?? '0');

  /** The export of today (UTC) holds the receipt, line for line what GET answers. */
  async function expectInTodaysExport(body: ReceiptBody) {
    const today = new Date().toISOString().slice(0, 10);
    const res = await auth(request(t.server).get('/api/v1/compliance/receipts/export'))
      .query({
        from: `${today}T00:00:00Z`,
        to: new Date(Date.parse(today) + 86_400_000).toISOString(),
      })
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => done(null, text));
      })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = (res.body as string)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const { authMethod, ...view } = body as ReceiptBody & { authMethod?: string };
    expect(authMethod).toBe('jwt');
    expect(lines.find((line) => line.id === body.id)).toEqual(view);
  }

  it('a one-pool swap: signed receipt, simulation = what the mined swap did, execution, export', async () => {
    const user = chain.wallets[5];
    // Through the service's demo activation: the receipt names what opened the session.
    const activated = await auth(request(t.server).post('/api/v1/onboarding/activate-session-demo'))
      .send({ walletAddress: user.address })
      .expect(200);
    const amount = 10n ** 17n;
    const built = await readyBuild(user, '/api/v1/defi/swap', {
      tokenIn: WETH,
      tokenOut: TUSDC,
      amount: amount.toString(),
      userAddress: user.address,
    });
    const { receipt } = await verifiedReceipt(built.receiptId);
    expect(receipt).toMatchObject({
      id: built.receiptId,
      version: 1,
      chainId: 84532,
      wallet: user.address,
      walletBound: true,
      operation: 'swap',
      request: {
        tokenIn: WETH,
        tokenOut: TUSDC,
        amount: amount.toString(),
        deadline: built.deadline,
      },
      route: { hops: built.route.hops, poolKey: built.poolKey },
      terms: { tradeType: 'EXACT_INPUT', minAmountOut: built.minAmountOut, slippageBps: 50 },
      transaction: built.transaction,
      approvals: [],
      sources: [{ kind: 'demo', activationTxHash: activated.body.txHash }],
      sanctions: { oracle: expect.any(String), listed: false },
      simulation: { method: 'eth_call+stateOverride', status: 'success' },
      tolerance: { toleranceBps: 50, exact: [WETH] },
      authorization: null,
      approval: null,
    });
    expect(receipt.policy).toEqual({
      version: 0, // the account never set a policy: the default one, version 0
      rules: [
        expect.objectContaining({ rule: 'sources', result: 'pass', at: 'activation' }),
        expect.objectContaining({ rule: 'countries', result: 'not_applicable', at: 'activation' }),
        expect.objectContaining({ rule: 'session', result: 'pass', at: 'build' }),
        expect.objectContaining({ rule: 'sanctions', result: 'pass', at: 'build' }),
      ],
    });
    expect(receipt.simulation.blockNumber).toBe(receipt.sanctions.blockNumber);
    expect(receipt.simulation.balanceChanges).toEqual([
      { token: WETH, delta: (-amount).toString() },
      { token: TUSDC, delta: built.quotedAmountOut },
    ]);

    const { receipt: executed, changes } = await relayAndCheck(user, built, [ETH, WETH, TUSDC]);
    // The input exactly, the output within the slippage bound (nothing traded in between: equal).
    expect(deltaOf(changes, WETH)).toBe(-amount);
    const simulatedOut = BigInt(receipt.simulation.balanceChanges[1].delta);
    const out = deltaOf(changes, TUSDC);
    expect(out >= BigInt(built.minAmountOut)).toBe(true);
    expect((simulatedOut - out) * 10_000n <= simulatedOut * 50n).toBe(true);
    expect(out).toBe(simulatedOut);
    await expectInTodaysExport(executed);
  });

  it('a two-hop swap (tWBTC -> WETH -> tUSDC): the same, over the route', async () => {
    const user = chain.wallets[6];
    await chain.activate(user.address);
    const amount = 10n ** 6n;
    const built = await readyBuild(user, '/api/v1/defi/swap', {
      tokenIn: TWBTC,
      tokenOut: TUSDC,
      amount: amount.toString(),
      userAddress: user.address,
    });
    expect(built.route.hops).toHaveLength(2);
    const { receipt } = await verifiedReceipt(built.receiptId);
    // Opened on the registry directly, not by the service: the receipt says it does not know how.
    expect(receipt.sources).toEqual([{ kind: 'unknown' }]);
    expect(receipt.policy.rules.map((r: { result: string }) => r.result)).toEqual([
      'unknown',
      'unknown',
      'pass',
      'pass',
    ]);
    expect(receipt.route.hops).toEqual(built.route.hops);
    const sortedByToken = [
      { token: TUSDC, delta: built.quotedAmountOut },
      { token: TWBTC, delta: (-amount).toString() },
    ].sort((a, b) => (a.token.toLowerCase() < b.token.toLowerCase() ? -1 : 1));
    expect(receipt.simulation.balanceChanges).toEqual(sortedByToken);
    const { receipt: executed, changes } = await relayAndCheck(user, built, [
      ETH,
      TWBTC,
      WETH,
      TUSDC,
    ]);
    expect(deltaOf(changes, TWBTC)).toBe(-amount);
    expect(deltaOf(changes, WETH)).toBe(0n); // the intermediate token never reaches the wallet
    expect(deltaOf(changes, TUSDC)).toBe(BigInt(built.quotedAmountOut));
    await expectInTodaysExport(executed);
  });

  it('a mint: the amounts the simulation took are the ones the mined mint took', async () => {
    const user = chain.wallets[7];
    await chain.activate(user.address);
    const built = await readyBuild(
      user,
      '/api/v1/defi/liquidity',
      mintBody({ WETH, TUSDC } as never, user.address),
    );
    const { receipt } = await verifiedReceipt(built.receiptId);
    expect(receipt).toMatchObject({
      operation: 'mint',
      route: { poolKey: built.poolKey },
      terms: { tickLower: -887220, tickUpper: 887220, liquidity: built.liquidity },
    });
    expect(receipt.simulation.balanceChanges).toEqual([
      { token: WETH, delta: `-${built.expectedAmount0}` },
      { token: TUSDC, delta: `-${built.expectedAmount1}` },
    ]);
    const { receipt: executed, changes } = await relayAndCheck(user, built, [ETH, WETH, TUSDC]);
    expect(changes).toEqual(receipt.simulation.balanceChanges);
    await expectInTodaysExport(executed);
  });

  it("a swap carrying a signed Permit2 permit: the simulation checks the permit's signature as the wallet's", async () => {
    const user = chain.wallets[9];
    await chain.activate(user.address);
    const body = {
      tokenIn: TUSDC,
      tokenOut: WETH,
      amount: (1000n * 10n ** 6n).toString(),
      userAddress: user.address,
    };
    const first = await auth(request(t.server).post('/api/v1/defi/swap')).send(body).expect(200);
    expect(first.body.approvals.map((a: { kind: string }) => a.kind)).toEqual(['erc20', 'permit2']);
    await relayUntilConfirmed(t, token, await signBuilt(user, first.body.approvals[0].transaction));
    const { domain, types, values } = first.body.permitData;
    const built = await auth(request(t.server).post('/api/v1/defi/swap'))
      .send({
        ...body,
        permit: values,
        permitSignature: await user.signTypedData(domain, types, values),
      })
      .expect(200);
    expect(built.body.approvals).toEqual([]);
    const { receipt } = await verifiedReceipt(built.body.receiptId);
    // The wallet has code during the simulation: Permit2 asks it (ERC-1271), and it answers as
    // the EOA's signature check would; the permit and the swap then ran.
    expect(receipt.simulation).toMatchObject({ status: 'success' });
    expect(receipt.simulation.balanceChanges).toEqual([
      { token: WETH, delta: built.body.quotedAmountOut },
      { token: TUSDC, delta: (-(1000n * 10n ** 6n)).toString() },
    ]);
    // In the simulation the permit's signature is checked through the wallet's ERC-1271 answer
    // (a call and its decoding) rather than by ecrecover in Permit2: a little more gas.
    const { changes } = await relayAndCheck(user, built.body, [ETH, WETH, TUSDC], (sim, mined) => {
      console.info(`permit swap: simulated gas ${sim}, mined ${mined}`);
      expect(sim - mined > 0n && sim - mined < 2_000n).toBe(true);
    });
    expect(changes).toEqual(receipt.simulation.balanceChanges);
  });

  it('a swap the wallet sends itself (not relayed) gets its execution from the chain watch', async () => {
    const user = chain.wallets[8];
    await chain.activate(user.address);
    const built = await readyBuild(user, '/api/v1/defi/swap', {
      tokenIn: ETH,
      tokenOut: TUSDC,
      amount: (10n ** 16n).toString(),
      userAddress: user.address,
    });
    const { receipt } = await verifiedReceipt(built.receiptId);
    expect(receipt.simulation.balanceChanges).toEqual([
      { token: ETH, delta: (-(10n ** 16n)).toString() },
      { token: TUSDC, delta: built.quotedAmountOut },
    ]);
    const { changes, receipt: mined } = await realChanges(
      chain.provider,
      user.address,
      [ETH, WETH, TUSDC],
      () => chain.send(user, built.transaction),
    );
    expect(changes).toEqual(receipt.simulation.balanceChanges);
    const executed = await waitForExecution(t, token, built.receiptId);
    // Before refunds: paying ETH, the router's WETH balance slot goes 0 -> x -> 0 within the
    // transaction, which refunds 20,000 - 100 (EIP-3529) of the gas the simulation counted.
    expect(BigInt(receipt.simulation.gasUsed) - mined.gasUsed).toBe(19_900n);
    expect(executed.receipt.execution).toMatchObject({
      txHash: mined.hash,
      status: 'success',
      relayed: false,
      balanceChanges: changes,
      withinSlippage: true,
    });
  });
});
