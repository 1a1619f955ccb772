import { ApiError } from '../common/errors/api-error';
import type { ChainConfig } from '../config/chain.config';
import type { ChainConnection } from './chain-connection';
import { ChainRevertError, ChainRpcService } from './chain-rpc.service';

const config = { timeoutMs: 300, retries: 2, healthTimeoutMs: 100 } as ChainConfig;
const service = (provider: object) =>
  new ChainRpcService({ provider } as unknown as ChainConnection, config);
const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe(ChainRpcService.name, () => {
  it('retries transport failures within the budget, then answers', async () => {
    let calls = 0;
    const rpc = service({ call: async () => (++calls < 2 ? Promise.reject(refused()) : '0x01') });
    await expect(
      rpc.call({ to: '0x0000000000000000000000000000000000000001', data: '0x' }),
    ).resolves.toBe('0x01');
    expect(calls).toBe(2);
  });

  it('gives up as CHAIN_UNAVAILABLE (503) once retries are spent', async () => {
    const rpc = service({ call: async () => Promise.reject(refused()) });
    const error = await rpc
      .call({ to: '0x0000000000000000000000000000000000000001', data: '0x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
  });

  it('never waits past the time budget for a silent RPC', async () => {
    const rpc = service({ call: () => new Promise(() => undefined) });
    const started = Date.now();
    await expect(
      rpc.call({ to: '0x0000000000000000000000000000000000000001', data: '0x' }),
    ).rejects.toMatchObject({ code: 'CHAIN_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(config.timeoutMs + 150);
  });

  it('does not retry a revert: it is an answer, decoded', async () => {
    let calls = 0;
    const data = '0x3f9b2f6c00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8';
    const rpc = service({
      call: async () => (calls++, Promise.reject({ code: 'CALL_EXCEPTION', data })),
      estimateGas: async () => Promise.reject({ code: 'CALL_EXCEPTION', data }),
    });
    await expect(
      rpc.call({ to: '0x0000000000000000000000000000000000000001', data: '0x' }),
    ).rejects.toBeInstanceOf(ChainRevertError);
    expect(calls).toBe(1);
    await expect(
      rpc.estimateGas({ to: '0x0000000000000000000000000000000000000001', data: '0x' }),
    ).resolves.toMatchObject({ ok: false, revertData: data });
  });
});
