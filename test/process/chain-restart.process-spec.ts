/**
 * Issue 47 item 1: the embedded chain and the database agree across restarts of `npm start`. The
 * embedded devnet starts a new chain on every start while DATA_DIR keeps the database: the second
 * start recognises the new instance, says so in its banner and in /health/ready, and serves
 * nothing about the old chain (the relayed transaction is NOT_FOUND, the session is inactive and
 * the wallet has no watched session), while the account, its wallet, API key and webhook stay.
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devnetPrivateKeys } from '../../src/chain/devnet/devnet';
import { BuiltAppProcess, ensureDistBuilt, startBuiltApp } from '../helpers/built-app-process';
import { pollUntil } from '../helpers/wait';

/** Development account 7: funded, used by no other process spec. */
const WALLET_KEY = devnetPrivateKeys()[7];

describe('npm start twice on one DATA_DIR (embedded devnet)', () => {
  let dataDir: string;
  let running: BuiltAppProcess | undefined;

  beforeAll(() => {
    ensureDistBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cgk-restart-'));
  });
  afterAll(() => {
    running?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (path: string, init: { method?: string; body?: unknown; auth?: string } = {}) =>
    fetch(`http://127.0.0.1:${running!.port}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        'Content-Type': 'application/json',
        ...(init.auth?.startsWith('cgk_')
          ? { 'X-API-Key': init.auth }
          : init.auth
            ? { Authorization: `Bearer ${init.auth}` }
            : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, checked by matchers
  type Json = Record<string, any>;
  const json = async (path: string, init: Parameters<typeof api>[1] = {}) => {
    const res = await api(path, init);
    return { status: res.status, body: (await res.json()) as Json };
  };
  const loginToken = async () => {
    const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    const res = await json('/auth/login', {
      body: { email: credentials.email, password: credentials.password },
    });
    expect(res.status).toBe(200);
    return res.body.accessToken as string;
  };

  it('recognises the new chain, says so, and clears what the database said about the old one', async () => {
    running = await startBuiltApp({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', HEALTH_DETAILS: 'true' });
    const firstReady = await json('/health/ready');
    expect(firstReady.body.details.chain.instance).toMatchObject({ state: 'first' });
    const firstGenesis = firstReady.body.details.chain.instance.genesisHash as string;
    expect(running.output()).not.toContain('New chain');

    // The demo account: a key, a webhook, a wallet with a session, and one relayed transaction.
    const token = await loginToken();
    const key = (
      await json('/api/v1/api-keys', {
        auth: token,
        body: {
          name: 'restart',
          scopes: ['defi:swap', 'defi:preflight', 'defi:broadcast', 'onboarding:write'],
        },
      })
    ).body.key as string;
    const hook = await json('/api/v1/webhooks', {
      auth: token,
      body: { url: 'http://127.0.0.1:9/hook', events: ['session.activated'] },
    });
    expect(hook.status).toBe(201);
    const signer = new Wallet(WALLET_KEY);
    const activated = await json('/api/v1/onboarding/activate-session-demo', {
      auth: key,
      body: { walletAddress: signer.address },
    });
    expect(activated.status).toBe(200);
    const config = (await json('/api/v1/defi/config', { auth: key })).body;
    const weth = config.tokens.find((t: { symbol: string }) => t.symbol === 'WETH').address;
    const tusdc = config.tokens.find((t: { symbol: string }) => t.symbol === 'tUSDC').address;
    const swap = await json('/api/v1/defi/swap', {
      auth: key,
      body: {
        tokenIn: weth,
        tokenOut: tusdc,
        amount: '100000000000000000',
        userAddress: signer.address,
      },
    });
    expect({ status: swap.status, code: swap.body.code }).toEqual({ status: 200, code: undefined });
    const call = swap.body.calls[0];
    const provider = new JsonRpcProvider(config.chain.rpcUrl, 84532, { staticNetwork: true });
    const wallet = signer.connect(provider);
    const signed = await wallet.signTransaction(
      await wallet.populateTransaction({ ...call, value: BigInt(call.value) }),
    );
    provider.destroy();
    const relayed = await json('/api/v1/defi/transactions', {
      auth: key,
      body: { signedTransaction: signed },
    });
    expect(relayed.status).toBeLessThan(300);
    const txHash = relayed.body.txHash as string;
    await pollUntil(
      'the relayed transaction is mined',
      () => json(`/api/v1/defi/transactions/${txHash}`, { auth: key }),
      (res) => res.body.status === 'CONFIRMED',
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(await running.stop()).toEqual({ code: 0, signal: null });

    // The second start: the same database, a new devnet; the banner a terminal would show.
    running = await startBuiltApp({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'pretty',
      HEALTH_DETAILS: 'true',
    });
    const ready = await json('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details.chain.instance).toMatchObject({
      state: 'new',
      previousGenesisHash: firstGenesis,
      cleared: { 'relayed transactions': 1, 'watched sessions': 1 },
    });
    expect(ready.body.details.chain.instance.genesisHash).not.toBe(firstGenesis);
    expect(running.output()).toMatch(/New chain +a new chain instance since the last start/);
    // One "<count> <kind>" per feature that keeps chain rows, in the order the features registered.
    for (const part of [
      /[(,] ?1 relayed transactions[,)]/,
      /[(,] ?0 stored idempotent answers[,)]/,
      /[(,] ?1 watched sessions[,)]/,
      /[(,] ?0 indexed attestations[,)]/,
    ])
      expect(running.output()).toMatch(part);

    // Nothing about the old chain: the transaction is unknown, the session not active.
    const tx = await json(`/api/v1/defi/transactions/${txHash}`, { auth: key });
    // (an unknown hash is 200 with status NOT_FOUND; the relay's record of it is gone too)
    expect(tx.body).toMatchObject({ status: 'NOT_FOUND', kind: null, from: null });
    // What is not chain state stays: the key (it just answered), the login, the webhook, the wallet.
    const again = await loginToken();
    const session = await json(`/api/v1/compliance/sessions/${signer.address}`, { auth: again });
    expect(session.body).toMatchObject({ active: false });
    const hooks = await json('/api/v1/webhooks', { auth: again });
    expect(JSON.stringify(hooks.body)).toContain(hook.body.id);
    const wallets = await json('/api/v1/wallets', { auth: again });
    expect(JSON.stringify(wallets.body)).toContain(signer.address);
    expect(await running.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});
