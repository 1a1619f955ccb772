import request from 'supertest';
import { ChainConnection } from '../../src/chain/chain-connection';
import { createTestApp, TestApp } from '../helpers/app';
import { pollUntil } from '../helpers/wait';

/** The embedded devnet is restarted when its process dies (issue 16: 8). */
describe('Embedded devnet supervision', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Its own devnet child (not the worker's shared one), on an ephemeral port.
    t = await createTestApp({ env: { DEVNET_SHARED: 'false', DEVNET_PORT: '0' } });
  }, 120_000);
  afterAll(() => t?.close());

  it('readiness says degraded (chain) while the killed devnet is down, then ok once it is restarted', async () => {
    await request(t.server).get('/health/ready').expect(200);
    const chain = t.app.get(ChainConnection);
    const blockBefore = await chain.provider.getBlockNumber();
    process.kill(chain.devnet!.pid, 'SIGKILL');

    const down = await pollUntil(
      'readiness to report the chain degraded',
      () => request(t.server).get('/health/ready'),
      (res) => res.body.status === 'degraded',
      { timeoutMs: 5_000, intervalMs: 25 },
    );
    expect(down.status).toBe(200);
    expect(down.body.details.chain).toMatchObject({ status: 'degraded' });

    await pollUntil(
      'readiness to recover after the restart',
      async () => (await request(t.server).get('/health/ready')).body.status,
      (status) => status === 'ok',
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    // Same RPC URL and addresses; the state is the fresh deployment's (the log says it was lost).
    expect(await chain.provider.getBlockNumber()).toBeLessThanOrEqual(blockBefore);
  }, 90_000);
});
