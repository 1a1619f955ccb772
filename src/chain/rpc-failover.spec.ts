import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { keccak256 } from 'ethers';
import { FailoverJsonRpcProvider } from './failover-provider';
import { JsonRpcError } from './json-rpc-http';
import { RpcFailover } from './rpc-failover';

type Body = { id: number; method: string; params: unknown[] };
type Behaviour = (body: Body, res: ServerResponse) => void;

/** A scripted JSON-RPC provider on loopback: the edge we do not own, played for real over HTTP. */
async function node(behaviour: Behaviour) {
  const methods: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Body;
      methods.push(body.method);
      behaviour(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    /** With a provider-style key in the path: it must never come back out. */
    url: `${origin}/v2/SECRETKEY123`,
    methods,
    calls: () => methods.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type Node = Awaited<ReturnType<typeof node>>;

const reply = (res: ServerResponse, id: number, payload: object) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, ...payload }));
const chainId: Behaviour = (body, res) => reply(res, body.id, { result: '0x14a34' });
const rateLimited =
  (retryAfter?: string): Behaviour =>
  (_body, res) =>
    res
      .writeHead(429, {
        'content-type': 'application/json',
        ...(retryAfter ? { 'retry-after': retryAfter } : {}),
      })
      .end('{"jsonrpc":"2.0","id":1,"error":{"code":429,"message":"compute units exceeded"}}');

async function closedUrl(): Promise<string> {
  const n = await node(chainId);
  await n.close();
  return `${n.origin}/v2/SECRETKEY123`;
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const options = { timeoutMs: 1_000, backoffMs: 5_000, backoffMaxMs: 60_000 };

describe(RpcFailover.name, () => {
  const nodes: Node[] = [];
  const failovers: RpcFailover[] = [];
  const start = async (behaviour: Behaviour) => {
    const n = await node(behaviour);
    nodes.push(n);
    return n;
  };
  const failover = (urls: string[], overrides: Partial<typeof options> = {}) => {
    const f = new RpcFailover(urls, { ...options, ...overrides });
    failovers.push(f);
    return f;
  };
  let warn: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    for (const f of failovers.splice(0)) f.destroy();
    await Promise.all(nodes.splice(0).map((n) => n.close()));
  });

  it('sends a JSON-RPC batch to the next URL when the first fails it or rate-limits one of its calls', async () => {
    const down = await start((_body, res) => res.writeHead(502).end('bad gateway'));
    const limitedInBatch = await start((body, res) => {
      const calls = body as unknown as Body[];
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify([
          { jsonrpc: '2.0', id: calls[0].id, result: '0x14a34' },
          { jsonrpc: '2.0', id: calls[1].id, error: { code: -32005, message: 'limit exceeded' } },
        ]),
      );
    });
    const healthy = await start((body, res) => {
      const calls = body as unknown as Body[];
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: '0x1' }))));
    });
    const rpc = failover([down.url, limitedInBatch.url, healthy.url]);
    const answers = await rpc.sendBatch([
      { method: 'eth_chainId', params: [] },
      { method: 'eth_blockNumber', params: [] },
    ]);
    expect(answers).toEqual([
      { ok: true, result: '0x1' },
      { ok: true, result: '0x1' },
    ]);
    expect([down.calls(), limitedInBatch.calls(), healthy.calls()]).toEqual([1, 1, 1]);
    expect(rpc.status().inUse).toBe(healthy.origin);
  });

  it('answers through the second URL while the first answers 429, honouring Retry-After', async () => {
    const first = await start(rateLimited('30'));
    const second = await start(chainId);
    const rpc = failover([first.url, second.url]);

    const sent = Date.now();
    await expect(rpc.send('eth_chainId', [])).resolves.toBe('0x14a34');
    await expect(rpc.send('eth_chainId', [])).resolves.toBe('0x14a34');
    const answered = Date.now();

    // The first is passed over for its Retry-After, not asked again on every call.
    expect(first.calls()).toBe(1);
    expect(second.calls()).toBe(2);
    const status = rpc.status();
    expect(status).toMatchObject({
      inUse: second.origin,
      urlsConfigured: 2,
      windowSeconds: 60,
      urls: [
        { url: first.origin, inUse: false, requests: 1, errors: 1, errorRate: 1 },
        { url: second.origin, inUse: true, requests: 2, errors: 0, errorRate: 0 },
      ],
    });
    // Retry-After's 30 s, not backoffMs' 5 s, from the failure, which came between `sent` and
    // `answered`: read as of `sent`, whatever the machine's speed.
    const cooling = rpc.status(sent).urls[0].coolingDownForMs!;
    expect(cooling).toBeGreaterThanOrEqual(30_000);
    expect(cooling).toBeLessThanOrEqual(30_000 + answered - sent);
    expect(JSON.stringify(status)).not.toContain('SECRETKEY123');
  });

  it('fails over on a refused connection and a 5xx, logging one warn line without the key', async () => {
    const refused = await closedUrl();
    const broken = await start((_b, res) => res.writeHead(502).end('<html>Bad Gateway</html>'));
    const good = await start(chainId);
    const rpc = failover([refused, broken.url, good.url]);

    await expect(rpc.send('eth_chainId', [])).resolves.toBe('0x14a34');
    await expect(rpc.send('eth_chainId', [])).resolves.toBe('0x14a34');

    expect(broken.calls()).toBe(1);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0][0]).toMatchObject({
      event: 'chain.rpc.failover',
      from: new URL(refused).origin,
      reason: 'ECONNREFUSED',
      cooldownMs: 5_000,
    });
    expect(warn.mock.calls[1][0]).toMatchObject({
      event: 'chain.rpc.failover',
      from: broken.origin,
      to: good.origin,
      reason: 'HTTP 502',
    });
    expect(JSON.stringify(warn.mock.calls)).not.toContain('SECRETKEY123');
  });

  it('never fails over on a JSON-RPC answer such as a revert: it is the chain speaking', async () => {
    const reverting = await start((body, res) =>
      reply(res, body.id, { error: { code: 3, message: 'execution reverted', data: '0x' } }),
    );
    const second = await start(chainId);
    const rpc = failover([reverting.url, second.url]);

    await expect(rpc.send('eth_call', [{ to: '0x' }, 'latest'])).rejects.toBeInstanceOf(
      JsonRpcError,
    );
    expect(second.calls()).toBe(0);
    expect(rpc.status().urls[0]).toMatchObject({ requests: 1, errors: 0, inUse: true });
  });

  it('returns to the primary once its cool-down is over', async () => {
    let failing = true;
    const primary = await start((body, res) =>
      failing ? res.writeHead(503).end('busy') : chainId(body, res),
    );
    const backup = await start(chainId);
    const rpc = failover([primary.url, backup.url], { backoffMs: 100 });

    await rpc.send('eth_chainId', []);
    expect(rpc.status().inUse).toBe(backup.origin);
    failing = false;
    await until(() => rpc.status().urls[0].coolingDownForMs === undefined);
    await rpc.send('eth_chainId', []);

    expect(rpc.status().inUse).toBe(primary.origin);
    expect(primary.calls()).toBe(2);
    expect(backup.calls()).toBe(1);
  });

  it('counts one failure for calls in flight together, and doubles the cool-down per probe', async () => {
    const down = await start((_b, res) => res.writeHead(503).end('down'));
    const backup = await start(chainId);
    const rpc = failover([down.url, backup.url], { backoffMs: 200, backoffMaxMs: 300 });
    // A cool-down read as of just before the calls that set it (their failure came between then
    // and their answer), so that the figures hold however slow the machine is.
    const coolingAsOf = (now: number) => rpc.status(now).urls[0].coolingDownForMs!;
    const timed = async (calls: () => Promise<unknown>) => {
      const sent = Date.now();
      await calls();
      return { sent, window: Date.now() - sent };
    };

    const first = await timed(() =>
      Promise.all(Array.from({ length: 5 }, () => rpc.send('eth_chainId', []))),
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(coolingAsOf(first.sent)).toBeGreaterThanOrEqual(200);
    expect(coolingAsOf(first.sent)).toBeLessThanOrEqual(200 + first.window);

    await until(() => rpc.status().urls[0].coolingDownForMs === undefined);
    const probe = await timed(() => rpc.send('eth_chainId', []));
    // 400, capped at 300.
    expect(coolingAsOf(probe.sent)).toBeGreaterThanOrEqual(300);
    expect(coolingAsOf(probe.sent)).toBeLessThanOrEqual(300 + probe.window);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('keeps the budget when the first URL hangs: the second answers within it', async () => {
    const hung = await start(() => undefined);
    const second = await start(chainId);
    const rpc = failover([hung.url, second.url]);

    const started = Date.now();
    // Resolving is answering within the budget (past it, the call rejects); the hung URL had
    // half of it, no less (a timer never fires early).
    await expect(rpc.send('eth_chainId', [], 1_000)).resolves.toBe('0x14a34');
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it('throws the last failure within the budget when every URL fails', async () => {
    const a = await start(rateLimited());
    const b = await start(() => undefined);
    // Each URL's own timeout is far past the budget, so "within the budget" needs no tight clock.
    const rpc = failover([a.url, b.url], { timeoutMs: 20_000 });

    const started = Date.now();
    await expect(rpc.send('eth_chainId', [], 600)).rejects.toMatchObject({
      name: 'ChainTimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    // Both are cooling down, and both are still tried (the soonest back first): never stuck.
    await expect(rpc.send('eth_blockNumber', [], 300)).rejects.toBeDefined();
    expect(a.calls()).toBe(2);
  });

  describe('a signed transaction resent after a transport failure', () => {
    const RAW =
      '0x02f86c8301a5340184773594008477359400825208940000000000000000000000000000000000000001808080c080a0aa';
    const HASH = keccak256(RAW);

    it('is the same transaction: "already known" from the next URL answers its hash', async () => {
      const reset = await start((_b, res) => res.socket?.destroy());
      const next = await start((body, res) =>
        reply(res, body.id, { error: { code: -32000, message: 'already known' } }),
      );
      const rpc = failover([reset.url, next.url]);
      await expect(rpc.send('eth_sendRawTransaction', [RAW])).resolves.toBe(HASH);
    });

    it('answers its hash when the next URL refuses it but holds it (mined: nonce too low)', async () => {
      const reset = await start((_b, res) => res.socket?.destroy());
      const next = await start((body, res) =>
        body.method === 'eth_getTransactionByHash'
          ? reply(res, body.id, { result: { hash: body.params[0] } })
          : reply(res, body.id, { error: { code: -32000, message: 'nonce too low' } }),
      );
      const rpc = failover([reset.url, next.url]);
      await expect(rpc.send('eth_sendRawTransaction', [RAW])).resolves.toBe(HASH);
      expect(next.methods).toEqual(['eth_sendRawTransaction', 'eth_getTransactionByHash']);
    });

    it('keeps the refusal when the next URL does not hold it', async () => {
      const reset = await start((_b, res) => res.socket?.destroy());
      const next = await start((body, res) =>
        body.method === 'eth_getTransactionByHash'
          ? reply(res, body.id, { result: null })
          : reply(res, body.id, { error: { code: -32000, message: 'nonce too low' } }),
      );
      const rpc = failover([reset.url, next.url]);
      await expect(rpc.send('eth_sendRawTransaction', [RAW])).rejects.toThrow('nonce too low');
    });
  });
});

describe(FailoverJsonRpcProvider.name, () => {
  const cleanup: Array<() => unknown> = [];
  afterEach(async () => {
    jest.restoreAllMocks();
    for (const step of cleanup.splice(0)) await step();
  });

  it("sends the attester's calls through the failover and keeps ethers' error mapping", async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const limited = await node(rateLimited());
    const chain = await node((body, res) =>
      body.method === 'eth_call'
        ? reply(res, body.id, { error: { code: 3, message: 'execution reverted', data: '0x' } })
        : reply(res, body.id, { result: '0x2a' }),
    );
    const rpc = new RpcFailover([limited.url, chain.url], options);
    const provider = new FailoverJsonRpcProvider(rpc, 84532);
    cleanup.push(
      () => provider.destroy(),
      () => rpc.destroy(),
      () => limited.close(),
      () => chain.close(),
    );

    await expect(provider.getBlockNumber()).resolves.toBe(42);
    await expect(
      provider.call({ to: '0x0000000000000000000000000000000000000001', data: '0x' }),
    ).rejects.toMatchObject({ code: 'CALL_EXCEPTION' });
    expect(rpc.status().inUse).toBe(chain.origin);
  });
});
