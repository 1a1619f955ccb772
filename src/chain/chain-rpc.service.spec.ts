import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { ApiError } from '../common/errors/api-error';
import type { ChainConfig } from '../config/chain.config';
import type { ChainConnection } from './chain-connection';
import { ChainRevertError, ChainRpcService } from './chain-rpc.service';
import { decodeRevert } from './encoding/revert-decoder';
import { FailoverJsonRpcProvider } from './failover-provider';
import { createJsonRpcTransport } from './json-rpc-http';

// Room for a local retry on a loaded CI machine: at 300 ms, the first attempt once timed out.
const config = { timeoutMs: 1000, retries: 2, healthTimeoutMs: 100 } as ChainConfig;
const TO = '0x0000000000000000000000000000000000000001';
const REVERT = '0x3f9b2f6c00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8';

type Behaviour = (body: { id: number; method: string }, res: ServerResponse) => void;

/** A scripted JSON-RPC node on loopback: the edge we do not own, played for real over HTTP. */
async function node(
  behaviour: Behaviour,
): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      calls += 1;
      behaviour(JSON.parse(raw), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const reply = (res: ServerResponse, id: number, payload: object) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, ...payload }));

const service = (url: string) => {
  const reads = createJsonRpcTransport(url, config.timeoutMs);
  return new ChainRpcService(
    { provider: new FailoverJsonRpcProvider(reads, 84532), reads } as unknown as ChainConnection,
    config,
  );
};

describe(ChainRpcService.name, () => {
  it.each([
    ['a failed connection within the budget', (res: ServerResponse) => res.socket?.destroy()],
    [
      'a proxy error page (HTTP 502, not JSON-RPC)',
      (res: ServerResponse) =>
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>'),
    ],
  ])('retries %s, then answers', async (_failure, failFirst) => {
    let first = true;
    const n = await node((body, res) => {
      if (first) {
        first = false;
        failFirst(res);
        return;
      }
      reply(res, body.id, { result: '0x01' });
    });
    try {
      await expect(service(n.url).call({ to: TO, data: '0x' })).resolves.toBe('0x01');
      expect(n.calls()).toBe(2);
    } finally {
      await n.close();
    }
  });

  it('gives up as CHAIN_UNAVAILABLE (503) when nothing listens', async () => {
    const n = await node(() => undefined);
    const url = n.url;
    await n.close();
    const error = await service(url)
      .call({ to: TO, data: '0x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
  });

  it('never waits past the time budget for a silent RPC, and does not resend to it', async () => {
    const n = await node(() => undefined);
    try {
      const started = Date.now();
      await expect(service(n.url).call({ to: TO, data: '0x' })).rejects.toMatchObject({
        code: 'CHAIN_UNAVAILABLE',
      });
      // One budget waited (a timer never fires early), not a second one: a resend would have
      // cost another whole timeout, so the bound needs no tight clock on a loaded machine.
      expect(Date.now() - started).toBeGreaterThanOrEqual(config.timeoutMs - 50);
      expect(Date.now() - started).toBeLessThan(2 * config.timeoutMs);
      expect(n.calls()).toBe(1);
    } finally {
      await n.close();
    }
  });

  it('does not retry a revert: it is an answer, decoded', async () => {
    const n = await node((body, res) =>
      reply(res, body.id, { error: { code: 3, message: 'execution reverted', data: REVERT } }),
    );
    try {
      const rpc = service(n.url);
      await expect(rpc.call({ to: TO, data: '0x' })).rejects.toBeInstanceOf(ChainRevertError);
      expect(n.calls()).toBe(1);
      await expect(rpc.estimateGas({ to: TO, data: '0x' })).resolves.toMatchObject({
        ok: false,
        revert: decodeRevert(REVERT),
      });
    } finally {
      await n.close();
    }
  });

  it('reports a revert without data as an answer too', async () => {
    const n = await node((body, res) =>
      reply(res, body.id, { error: { code: -32000, message: 'execution reverted' } }),
    );
    try {
      await expect(service(n.url).estimateGas({ to: TO, data: '0x' })).resolves.toMatchObject({
        ok: false,
        revert: { name: 'Unknown', code: 'REVERTED', summary: 'revert 0x' },
      });
    } finally {
      await n.close();
    }
  });
  it("returns a node's refusal of a raw transaction as an answer, sent once; an outage stays 503", async () => {
    const n = await node((body, res) =>
      reply(res, body.id, { error: { code: -32000, message: 'nonce too low' } }),
    );
    try {
      await expect(service(n.url).sendRawTransaction('0x02')).resolves.toEqual({
        ok: false,
        rpcCode: -32000,
        message: 'nonce too low',
      });
      expect(n.calls()).toBe(1);
    } finally {
      await n.close();
    }
    const limited = await node((body, res) =>
      reply(res, body.id, { error: { code: -32005, message: 'limit exceeded' } }),
    );
    try {
      await expect(service(limited.url).sendRawTransaction('0x02')).rejects.toMatchObject({
        code: 'CHAIN_UNAVAILABLE',
      });
    } finally {
      await limited.close();
    }
  });

  it('sends eth_call at a past block with the gas limit, and reads the pending nonce', async () => {
    const seen: Array<{ method: string; params: unknown[] }> = [];
    const n = await node((body, res) => {
      const { method, params } = body as unknown as { method: string; params: unknown[] };
      seen.push({ method, params });
      reply(res, body.id, { result: method === 'eth_getTransactionCount' ? '0x7' : '0x' });
    });
    try {
      const rpc = service(n.url);
      await rpc.call({ to: TO, data: '0x', gas: 21_000n }, 16);
      expect(await rpc.transactionCount(TO)).toBe(7);
      expect(seen).toEqual([
        { method: 'eth_call', params: [{ to: TO, data: '0x', gas: '0x5208' }, '0x10'] },
        { method: 'eth_getTransactionCount', params: [TO, 'pending'] },
      ]);
    } finally {
      await n.close();
    }
  });

  describe('batch', () => {
    type Sent = { id: number; method: string; params: unknown[] };

    it('sends the calls in ONE HTTP request and answers in call order, a revert decoded', async () => {
      const n = await node((body, res) => {
        const calls = body as unknown as Sent[];
        // Out of order, as a node may answer a batch.
        const answers = calls.reverse().map((c) =>
          c.method === 'eth_call'
            ? {
                jsonrpc: '2.0',
                id: c.id,
                error: { code: 3, message: 'execution reverted', data: REVERT },
              }
            : { jsonrpc: '2.0', id: c.id, result: '0x5208' },
        );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers));
      });
      try {
        const answers = await service(n.url).batch([
          { method: 'eth_estimateGas', params: [{ to: TO, data: '0x' }] },
          { method: 'eth_call', params: [{ to: TO, data: '0x' }, 'latest'] },
        ]);
        expect(n.calls()).toBe(1);
        expect(answers[0]).toEqual({ ok: true, result: '0x5208' });
        expect(answers[1].ok).toBe(false);
        const error = (answers[1] as { error: unknown }).error;
        expect(error).toBeInstanceOf(ChainRevertError);
        expect((error as ChainRevertError).revert).toEqual(decodeRevert(REVERT));
      } finally {
        await n.close();
      }
    });

    it('sends the calls one by one to a node that refuses batches, and keeps doing so', async () => {
      let batches = 0;
      const n = await node((body, res) => {
        if (Array.isArray(body)) {
          batches += 1;
          reply(res, 0, { error: { code: -32600, message: 'batch requests are not supported' } });
          return;
        }
        reply(res, body.id, { result: body.method === 'eth_chainId' ? '0x14a34' : '0x1' });
      });
      try {
        const rpc = service(n.url);
        const calls = [
          { method: 'eth_chainId', params: [] },
          { method: 'eth_blockNumber', params: [] },
        ];
        expect(await rpc.batch(calls)).toEqual([
          { ok: true, result: '0x14a34' },
          { ok: true, result: '0x1' },
        ]);
        expect(await rpc.batch(calls)).toHaveLength(2);
        expect(batches).toBe(1);
        expect(n.calls()).toBe(5);
      } finally {
        await n.close();
      }
    });

    it('is CHAIN_UNAVAILABLE when the provider fails the whole batch (HTTP 503)', async () => {
      const n = await node((_body, res) => res.writeHead(503).end('overloaded'));
      try {
        await expect(
          service(n.url).batch([{ method: 'eth_blockNumber', params: [] }]),
        ).rejects.toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
      } finally {
        await n.close();
      }
    });
  });
});
