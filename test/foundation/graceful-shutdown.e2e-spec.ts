import { AddressInfo } from 'node:net';
import { HealthController } from '../../src/health/health.controller';
import { GracefulShutdownService } from '../../src/lifecycle/graceful-shutdown.service';
import { createTestApp } from '../helpers/app';
import { HeldProbeController, HeldRequests } from '../helpers/error-probe.controller';
import { pollUntil } from '../helpers/wait';

describe('Graceful shutdown', () => {
  it('finishes in-flight requests, reports not ready while draining, then stops accepting', async () => {
    const t = await createTestApp({
      listen: true,
      extra: { controllers: [HeldProbeController], providers: [HeldRequests] },
    });
    const held = t.app.get(HeldRequests);
    const base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    const inFlight = Promise.all([1, 2, 3].map(() => fetch(`${base}/test-held`)));
    await held.whenHolding(3);
    const closing = t.close();
    await pollUntil(
      'draining to start',
      () => t.app.get(GracefulShutdownService).isDraining,
      Boolean,
    );
    // The readiness check says 503 while draining, and new connections are refused...
    await expect(t.app.get(HealthController).ready()).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
    });
    await pollUntil(
      'the listener to close',
      () => t.server.listening,
      (listening) => !listening,
    );
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();
    // ...while the requests already in flight still get their answers.
    held.releaseAll();
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
