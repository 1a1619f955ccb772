import { AddressInfo } from 'node:net';
import { HealthController } from '../../src/health/health.controller';
import { createTestApp } from '../helpers/app';
import { SlowProbeController } from '../helpers/error-probe.controller';

describe('Graceful shutdown', () => {
  it('finishes in-flight requests, reports not ready while draining, then stops accepting', async () => {
    const t = await createTestApp({ listen: true, extra: { controllers: [SlowProbeController] } });
    const base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    const inFlight = Promise.all([1, 2, 3].map(() => fetch(`${base}/test-slow?ms=400`)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = t.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // New connections are refused once draining starts; the readiness check itself says 503 too.
    await expect(t.app.get(HealthController).ready()).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
    });
    const responses = await inFlight;
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await Promise.all(responses.map((r) => r.json()))).toEqual([
      { done: true },
      { done: true },
      { done: true },
    ]);
    await closing;
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();
  });
});
